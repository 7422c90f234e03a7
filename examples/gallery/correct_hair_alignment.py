"""Comb hair strands along a wind direction.

The strand tangent uses a guarded normalisation with a hand-written adjoint so
that degenerate (zero-length) segments do not produce NaNs.
"""
import numpy as np
import warp as wp

STRANDS = 6
NODES = 5


@wp.func
def guarded_tangent(seg: wp.vec3):
    n = wp.length(seg)
    if n < 1.0e-6:
        return wp.vec3(0.0)
    return seg / n


@wp.func_grad(guarded_tangent)
def adj_guarded_tangent(seg: wp.vec3, adj_ret: wp.vec3):
    n = wp.length(seg)
    if n >= 1.0e-6:
        t = seg / n
        wp.adjoint[seg] += (adj_ret - wp.dot(adj_ret, t) * t) / n


@wp.kernel
def alignment_energy(
    nodes: wp.array2d(dtype=wp.vec3),
    wind: wp.vec3,
    energy: wp.array(dtype=float),
):
    s, k = wp.tid()
    seg = nodes[s, k + 1] - nodes[s, k]
    tangent = guarded_tangent(seg)
    misalign = 1.0 - wp.dot(tangent, wind)
    stretch = wp.dot(seg, seg) - 0.04
    wp.atomic_add(energy, 0, misalign * misalign + 10.0 * stretch * stretch)


def comb(nodes_np, wind):
    nodes = wp.array(nodes_np.astype(np.float32), dtype=wp.vec3, requires_grad=True)
    energy = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(alignment_energy, dim=(STRANDS, NODES - 1), inputs=[nodes, wind], outputs=[energy])
    tape.backward(energy)
    return float(energy.numpy()[0]), nodes.grad.numpy().copy()


def initial_nodes():
    rng = np.random.default_rng(4)
    steps = rng.normal(size=(STRANDS, NODES - 1, 3)) * 0.1 + np.array([0.0, -0.2, 0.0])
    roots = np.zeros((STRANDS, 1, 3))
    roots[:, 0, 0] = np.arange(STRANDS) * 0.1
    return np.concatenate([roots, roots + np.cumsum(steps, axis=1)], axis=1)


if __name__ == "__main__":
    wp.init()
    wind = wp.normalize(wp.vec3(1.0, -1.0, 0.0))
    nodes_np = initial_nodes()
    for it in range(8):
        e, g = comb(nodes_np, wind)
        g[:, 0, :] = 0.0  # roots are fixed to the scalp
        nodes_np = nodes_np - 0.01 * g
        if it % 2 == 0:
            print(f"iter {it}: energy={e:.5f}")
