# correct: the edge-length regulariser meets a zero-length edge (a duplicated joint vertex), but it measures lengths with wp.length, whose adjoint is guarded at zero.
"""Fit a helical spring model (radius, pitch, turns) to tracked markers on a
wire, with an edge-length regulariser. The wire's vertex list duplicates the
joint where two scanned pieces were stitched."""
import numpy as np
import warp as wp

N_SEG = 16
W_EDGE = 0.3


@wp.kernel
def helix(s: wp.array(dtype=float), params: wp.array(dtype=float), x: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    a = params[2] * s[i]
    x[i] = wp.vec3(params[0] * wp.cos(a), params[0] * wp.sin(a), params[1] * s[i])


@wp.kernel
def edge_energy(x: wp.array(dtype=wp.vec3), rest_len: wp.array(dtype=float), energy: wp.array(dtype=float)):
    e = wp.tid()
    l = wp.length(x[e + 1] - x[e])
    r = l - rest_len[e]
    wp.atomic_add(energy, 0, W_EDGE * r * r)


@wp.kernel
def marker_energy(x: wp.array(dtype=wp.vec3), markers: wp.array(dtype=int), goal: wp.array(dtype=wp.vec3),
                  energy: wp.array(dtype=float)):
    k = wp.tid()
    d = x[markers[k]] - goal[k]
    wp.atomic_add(energy, 0, wp.dot(d, d))


def wire():
    s = np.linspace(0.0, 1.0, N_SEG + 1)
    s = np.insert(s, 9, s[8])  # stitched joint: vertex 8 appears twice
    rest = np.diff(s) * 4.0
    return s.astype(np.float32), rest.astype(np.float32)


S, REST_LEN = wire()
MARKERS = np.array([0, 4, 9, 13, 17], dtype=np.int32)


def helix_np(p):
    a = p[2] * S
    return np.stack([p[0] * np.cos(a), p[0] * np.sin(a), p[1] * S], 1).astype(np.float32)


GOAL = helix_np([0.5, 1.2, 7.0])[MARKERS]
PARAMS0 = [0.45, 1.0, 6.5]


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.zeros(len(S), dtype=wp.vec3, requires_grad=True)
    energy = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(helix, dim=len(S), inputs=[wp.array(S, dtype=float), params], outputs=[x])
        wp.launch(edge_energy, dim=len(S) - 1, inputs=[x, wp.array(REST_LEN, dtype=float)], outputs=[energy])
        wp.launch(marker_energy, dim=len(MARKERS), inputs=[x, wp.array(MARKERS, dtype=int), wp.array(GOAL, dtype=wp.vec3)],
                  outputs=[energy])
    tape.backward(energy)
    return float(energy.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(60):
        e, g = evaluate(p)
        p -= 0.05 * g
    print(f"energy {e:.4f} radius {p[0]:.3f} pitch {p[1]:.3f} turn rate {p[2]:.3f}")
