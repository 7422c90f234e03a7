# correct: intermediates come from a helper / *_like / clone of arrays that already require grad
import numpy as np
import warp as wp

from _buffers import alloc, param

EDGES = np.array([[0, 1], [1, 2], [2, 3], [3, 0], [0, 2], [1, 3]], dtype=np.int32)


@wp.kernel
def edge_strain(x: wp.array(dtype=wp.vec2), edges: wp.array(dtype=wp.vec2i), rest: wp.array(dtype=wp.float32), strain: wp.array(dtype=wp.float32)):
    e = wp.tid()
    a = edges[e][0]
    b = edges[e][1]
    l = wp.length(x[a] - x[b])
    strain[e] = (l - rest[e]) / rest[e]


@wp.kernel
def offset_nodes(x0: wp.array(dtype=wp.vec2), shift: wp.array(dtype=wp.vec2), x: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    x[i] = x0[i] + shift[i]


@wp.kernel
def strain_energy(strain: wp.array(dtype=wp.float32), energy: wp.array(dtype=wp.float32)):
    e = wp.tid()
    s = strain[e]
    wp.atomic_add(energy, 0, s * s + 0.5 * s * s * s * s)


def energy_grad(shift_np):
    x0 = wp.array(np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float32), dtype=wp.vec2)
    edges = wp.array(EDGES, dtype=wp.vec2i)
    rest = wp.array(np.array([1, 1, 1, 1, 1.3, 1.5], dtype=np.float32), dtype=wp.float32)
    shift = param(shift_np, dtype=wp.vec2)
    x = wp.zeros_like(shift)
    strain = alloc(len(EDGES))
    energy = alloc(1)
    tape = wp.Tape()
    with tape:
        wp.launch(offset_nodes, dim=4, inputs=[x0, shift], outputs=[x])
        xc = wp.clone(x)
        wp.launch(edge_strain, dim=len(EDGES), inputs=[xc, edges, rest], outputs=[strain])
        wp.launch(strain_energy, dim=len(EDGES), inputs=[strain], outputs=[energy])
    tape.backward(energy)
    return float(energy.numpy()[0]), shift.grad.numpy().copy()


def main():
    s = np.zeros((4, 2), dtype=np.float32)
    s[2] = (0.1, 0.2)
    for it in range(6):
        e, g = energy_grad(s)
        g[0] = 0.0
        print(f"iter {it}: energy={e:.6f} max|grad|={np.abs(g).max():.5f}")
        s = (s - 0.05 * g).astype(np.float32)


if __name__ == "__main__":
    main()
