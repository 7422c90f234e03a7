# correct: a component of the deformation-gradient matrix is modified after the constructor filled it, but with -= (an accumulation), which Warp differentiates correctly.
"""Pre-stretched membrane: a square sheet is mounted with a horizontal
pre-stretch; the interior vertices of the mounted sheet settle at the minimum of
a St. Venant-Kirchhoff-like energy measured from the pre-stretched state."""
import numpy as np
import warp as wp

G = 4
INTERIOR = np.array([5, 6, 9, 10])
PRESTRETCH = 0.15


@wp.kernel
def membrane_energy(x: wp.array(dtype=wp.vec2), tris: wp.array(dtype=wp.vec3i), dm_inv: wp.array(dtype=wp.mat22),
                    area: wp.array(dtype=float), energy: wp.array(dtype=float)):
    t = wp.tid()
    a = x[tris[t][0]]
    e1 = x[tris[t][1]] - a
    e2 = x[tris[t][2]] - a
    F = wp.mat22(e1[0], e2[0], e1[1], e2[1]) * dm_inv[t]
    F[0, 0] -= PRESTRETCH
    E = 0.5 * (wp.transpose(F) * F - wp.identity(n=2, dtype=float))
    tr = E[0, 0] + E[1, 1]
    psi = wp.ddot(E, E) + 0.4 * tr * tr
    wp.atomic_add(energy, 0, area[t] * psi)


@wp.kernel
def place(free: wp.array(dtype=wp.vec2), idx: wp.array(dtype=int), x: wp.array(dtype=wp.vec2)):
    k = wp.tid()
    x[idx[k]] = free[k]


def sheet():
    s = np.linspace(0.0, 1.0, G)
    X, Y = np.meshgrid(s, s)
    rest = np.stack([X.ravel(), Y.ravel()], 1)
    tris = []
    for r in range(G - 1):
        for c in range(G - 1):
            a, b, d, e = r * G + c, r * G + c + 1, (r + 1) * G + c, (r + 1) * G + c + 1
            tris += [(a, b, e), (a, e, d)]
    tris = np.array(tris, dtype=np.int32)
    dm_inv, area = [], []
    for t in tris:
        D = np.stack([rest[t[1]] - rest[t[0]], rest[t[2]] - rest[t[0]]], 1)
        dm_inv.append(np.linalg.inv(D))
        area.append(0.5 * abs(np.linalg.det(D)))
    mounted = rest * np.array([1.2, 1.0]) + np.stack([np.zeros(G * G), 0.05 * np.sin(np.pi * rest[:, 0])], 1)
    return mounted.astype(np.float32), tris, np.array(dm_inv, np.float32), np.array(area, np.float32)


X0, TRIS, DM_INV, AREA = sheet()
PARAMS0 = list((X0[INTERIOR] + 0.03 * np.array([[1, -1], [-1, 1], [1, 1], [-1, -1]])).ravel())


def evaluate(p):
    free = wp.array(np.asarray(p, dtype=np.float32).reshape(-1, 2), dtype=wp.vec2, requires_grad=True)
    x = wp.array(X0, dtype=wp.vec2, requires_grad=True)
    energy = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(place, dim=len(INTERIOR), inputs=[free, wp.array(INTERIOR, dtype=int)], outputs=[x])
        wp.launch(membrane_energy, dim=len(TRIS), inputs=[x, wp.array(TRIS, dtype=wp.vec3i), wp.array(DM_INV, dtype=wp.mat22),
                                                          wp.array(AREA, dtype=float)], outputs=[energy])
    tape.backward(energy)
    return float(energy.numpy()[0]), free.grad.numpy().ravel().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(60):
        e, g = evaluate(p)
        p -= 0.1 * g
    print(f"membrane energy {e:.4e}")
    print("interior", p.reshape(-1, 2).round(3))
