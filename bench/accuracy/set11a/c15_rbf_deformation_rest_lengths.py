# correct: a launch inside the tape uses record_tape=False, but it only computes the rest edge lengths from the constant rest mesh, which carry no gradient.
"""Radial-basis-function mesh deformation: three RBF handles lift a flat sheet;
fit the handle heights so that marker vertices reach captured positions while
edge lengths stay close to the rest lengths."""
import numpy as np
import warp as wp

G = 6
HANDLES = wp.constant(wp.mat33(0.2, 0.2, 0.0, 0.8, 0.3, 0.0, 0.5, 0.8, 0.0))
W_EDGE = 2.0


@wp.kernel
def edge_lengths(x: wp.array(dtype=wp.vec3), edges: wp.array(dtype=wp.vec2i), out: wp.array(dtype=float)):
    e = wp.tid()
    out[e] = wp.length(x[edges[e][1]] - x[edges[e][0]])


@wp.kernel
def rbf_deform(rest: wp.array(dtype=wp.vec3), heights: wp.array(dtype=float), x: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    p = rest[i]
    dz = float(0.0)
    for h in range(3):
        d = p - HANDLES[h]
        dz += heights[h] * wp.exp(-wp.dot(d, d) / 0.08)
    x[i] = p + wp.vec3(0.0, 0.0, dz)


@wp.kernel
def stretch_energy(x: wp.array(dtype=wp.vec3), edges: wp.array(dtype=wp.vec2i), rest_len: wp.array(dtype=float),
                   energy: wp.array(dtype=float)):
    e = wp.tid()
    l = wp.length(x[edges[e][1]] - x[edges[e][0]])
    r = l / rest_len[e] - 1.0
    wp.atomic_add(energy, 0, W_EDGE * r * r)


@wp.kernel
def marker_energy(x: wp.array(dtype=wp.vec3), markers: wp.array(dtype=int), goal: wp.array(dtype=float),
                  energy: wp.array(dtype=float)):
    k = wp.tid()
    d = x[markers[k]][2] - goal[k]
    wp.atomic_add(energy, 0, d * d)


def sheet():
    s = np.linspace(0.0, 1.0, G)
    X, Y = np.meshgrid(s, s)
    rest = np.stack([X.ravel(), Y.ravel(), np.zeros(G * G)], 1).astype(np.float32)
    edges = []
    for r in range(G):
        for c in range(G):
            v = r * G + c
            if c + 1 < G:
                edges.append((v, v + 1))
            if r + 1 < G:
                edges.append((v, v + G))
    return rest, np.array(edges, dtype=np.int32)


REST, EDGES = sheet()
MARKERS = np.array([7, 10, 20, 27, 32], dtype=np.int32)
GOAL = np.array([0.25, 0.18, 0.05, 0.2, 0.3], dtype=np.float32)
PARAMS0 = [0.1, 0.1, 0.1]


def evaluate(p):
    heights = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    rest = wp.array(REST, dtype=wp.vec3)
    edges = wp.array(EDGES, dtype=wp.vec2i)
    rest_len = wp.zeros(len(EDGES), dtype=float)
    x = wp.zeros(G * G, dtype=wp.vec3, requires_grad=True)
    energy = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(edge_lengths, dim=len(EDGES), inputs=[rest, edges], outputs=[rest_len], record_tape=False)
        wp.launch(rbf_deform, dim=G * G, inputs=[rest, heights], outputs=[x])
        wp.launch(stretch_energy, dim=len(EDGES), inputs=[x, edges, rest_len], outputs=[energy])
        wp.launch(marker_energy, dim=len(MARKERS), inputs=[x, wp.array(MARKERS, dtype=int), wp.array(GOAL, dtype=float)],
                  outputs=[energy])
    tape.backward(energy)
    return float(energy.numpy()[0]), heights.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(60):
        e, g = evaluate(p)
        p -= 0.1 * g
    print(f"energy {e:.4f} handle heights {p.round(3)}")
