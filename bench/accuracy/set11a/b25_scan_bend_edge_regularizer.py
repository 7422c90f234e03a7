"""Fit a global bend-and-stretch deformation of a scanned strip mesh to four
tracked handle points, regularised by edge-length preservation. The scan
contains a collapsed sliver (two vertices at the same position), as raw scans
often do."""
import numpy as np
import warp as wp

NX, NY = 6, 3
W_EDGE = 0.5


@wp.kernel
def bend_stretch(rest: wp.array(dtype=wp.vec3), params: wp.array(dtype=float), x: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    p = rest[i]
    s = 1.0 + params[1]
    ang = params[0] * p[0]
    r = 1.0 / params[0]
    x[i] = wp.vec3(r * wp.sin(ang) * s, p[1], r * (1.0 - wp.cos(ang)) + params[2])


@wp.kernel
def edge_energy(x: wp.array(dtype=wp.vec3), edges: wp.array(dtype=wp.vec2i), rest_len: wp.array(dtype=float),
                energy: wp.array(dtype=float)):
    e = wp.tid()
    d = x[edges[e][1]] - x[edges[e][0]]
    l2 = wp.dot(d, d)
    l = wp.where(l2 > 0.0, wp.sqrt(l2), 0.0)  # expect: nonfinite
    r = l - rest_len[e]
    wp.atomic_add(energy, 0, W_EDGE * r * r)


@wp.kernel
def handle_energy(x: wp.array(dtype=wp.vec3), handles: wp.array(dtype=int), goal: wp.array(dtype=wp.vec3),
                  energy: wp.array(dtype=float)):
    k = wp.tid()
    d = x[handles[k]] - goal[k]
    wp.atomic_add(energy, 0, wp.dot(d, d))


def strip():
    xs, ys = np.meshgrid(np.linspace(0.0, 1.5, NX), np.linspace(-0.2, 0.2, NY))
    rest = np.stack([xs.ravel(), ys.ravel(), np.zeros(NX * NY)], 1)
    edges = []
    for r in range(NY):
        for c in range(NX):
            v = r * NX + c
            if c + 1 < NX:
                edges.append((v, v + 1))
            if r + 1 < NY:
                edges.append((v, v + NX))
            if c + 1 < NX and r + 1 < NY:
                edges.append((v, v + NX + 1))
    # collapsed sliver: vertex NX*NY duplicates vertex 8 and is joined to it and to 9
    rest = np.vstack([rest, rest[8]])
    dup = NX * NY
    edges += [(8, dup), (dup, 9)]
    edges = np.array(edges, dtype=np.int32)
    rest_len = np.linalg.norm(rest[edges[:, 1]] - rest[edges[:, 0]], axis=1)
    return rest.astype(np.float32), edges, rest_len.astype(np.float32)


REST, EDGES, REST_LEN = strip()
HANDLES = np.array([0, NX - 1, 2 * NX, 3 * NX - 1], dtype=np.int32)
GOAL = np.array([[0.0, -0.2, 0.1], [1.2, -0.2, 0.75], [0.0, 0.2, 0.1], [1.2, 0.2, 0.75]], dtype=np.float32)
PARAMS0 = [0.8, 0.0, 0.0]


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    rest = wp.array(REST, dtype=wp.vec3)
    x = wp.zeros(len(REST), dtype=wp.vec3, requires_grad=True)
    energy = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(bend_stretch, dim=len(REST), inputs=[rest, params], outputs=[x])
        wp.launch(edge_energy, dim=len(EDGES), inputs=[x, wp.array(EDGES, dtype=wp.vec2i),
                                                       wp.array(REST_LEN, dtype=float)], outputs=[energy])
        wp.launch(handle_energy, dim=len(HANDLES), inputs=[x, wp.array(HANDLES, dtype=int),
                                                           wp.array(GOAL, dtype=wp.vec3)], outputs=[energy])
    tape.backward(energy)
    return float(energy.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        e, g = evaluate(p)
        if not np.all(np.isfinite(g)):
            print(f"iter {it}: gradient {g}")
            break
        p -= 0.05 * g
    print(f"energy {e:.4f} bend {p[0]:.3f} stretch {p[1]:.3f} lift {p[2]:.3f}")
