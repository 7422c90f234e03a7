"""Torsion parametrisation for united-atom butane: the model torsion profile is
k_phi (1 + cos(3 phi - pi)) plus a scaled 1-4 Lennard-Jones term s14 * LJ(r_14);
k_phi and the 1-4 scale factor s14 are fitted to a reference torsion scan.
"""
import numpy as np
import warp as wp

EPS_CH2 = 0.0914  # kcal/mol
SIG_CH2 = 3.95  # Angstrom


@wp.func
def dihedral(a: wp.vec3, b: wp.vec3, c: wp.vec3, d: wp.vec3):
    b1 = b - a
    b2 = c - b
    b3 = d - c
    n1 = wp.cross(b1, b2)
    n2 = wp.cross(b2, b3)
    m = wp.cross(n1, wp.normalize(b2))
    return wp.atan2(wp.dot(m, n2), wp.dot(n1, n2))


@wp.kernel
def torsion_profile(x: wp.array2d(dtype=wp.vec3), prm: wp.array(dtype=float), e_tors: wp.array(dtype=float),
                    e14: wp.array(dtype=float)):
    c = wp.tid()
    phi = dihedral(x[c, 0], x[c, 1], x[c, 2], x[c, 3])
    e_tors[c] = prm[0] * (1.0 + wp.cos(3.0 * phi - wp.pi))
    d = x[c, 0] - x[c, 3]
    s6 = wp.pow(SIG_CH2 * SIG_CH2 / wp.dot(d, d), 3.0)
    e14[c] = 4.0 * EPS_CH2 * (s6 * s6 - s6)
    e14[c] *= prm[1]  # expect: inplace_op


@wp.kernel
def scan_loss(e_tors: wp.array(dtype=float), e14: wp.array(dtype=float), e_ref: wp.array(dtype=float),
              loss: wp.array(dtype=float)):
    c = wp.tid()
    r = e_tors[c] + e14[c] - e_ref[c]
    wp.atomic_add(loss, 0, r * r / float(e_ref.shape[0]))


def torsion_scan(n):
    phis = np.linspace(-np.pi, np.pi, n, endpoint=False) + 0.1
    th = np.deg2rad(112.0)
    xs = []
    for phi in phis:
        x = np.zeros((4, 3))
        x[1] = [1.53, 0, 0]
        x[2] = x[1] + 1.53 * np.array([-np.cos(th), np.sin(th), 0])
        b = (x[2] - x[1]) / 1.53
        nrm = np.cross(x[1] - x[0], b)
        nrm /= np.linalg.norm(nrm)
        m = np.cross(nrm, b)
        x[3] = x[2] + 1.53 * (-np.cos(th) * b + np.sin(th) * np.cos(phi) * m + np.sin(th) * np.sin(phi) * nrm)
        xs.append(x)
    xs = np.array(xs)
    r14 = np.linalg.norm(xs[:, 0] - xs[:, 3], axis=1)
    lj14 = 4 * EPS_CH2 * ((SIG_CH2 / r14) ** 12 - (SIG_CH2 / r14) ** 6)
    e_ref = 1.45 * (1 + np.cos(3 * phis - np.pi)) + 0.4 * (1 - np.cos(phis)) + 0.5 * lj14
    return xs.astype(np.float32), (e_ref - e_ref.min()).astype(np.float32)


X_SCAN, E_SCAN = torsion_scan(24)
PARAMS0 = np.array([1.2, 0.8])  # k_phi, s14
FD_EPS = 1e-3


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(X_SCAN, dtype=wp.vec3)
    e_ref = wp.array(E_SCAN, dtype=float)
    e_tors = wp.zeros(len(X_SCAN), dtype=float, requires_grad=True)
    e14 = wp.zeros(len(X_SCAN), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(torsion_profile, dim=len(X_SCAN), inputs=[x, prm], outputs=[e_tors, e14])
        wp.launch(scan_loss, dim=len(X_SCAN), inputs=[e_tors, e14, e_ref], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(5):
        L, g = evaluate(p)
        print(f"iter {it}: scan MSE {L:.4f} (k_phi, s14) = {np.round(p, 4)} grad {np.round(g, 4)}")
        p = p - 0.1 * g
