"""Elastic response of a triclinic LJ crystal (2x2x2 cells, 2 atoms per cell):
derivatives of the energy per atom with respect to the lattice scale a and a
uniaxial strain e_xx applied to the cell matrix (the stress component
sigma_xx ~ dE/de_xx). Pair separations use fractional coordinates and the cell
matrix H.
"""
import numpy as np
import warp as wp

from _lj import lj_energy

H_REF = np.array([[1.0, 0.25, 0.15], [0.0, 0.95, 0.2], [0.0, 0.0, 1.05]], dtype=np.float32) * 1.6


@wp.func
def strained_cell(h_ref: wp.mat33, a: float, strain: float):
    H = h_ref * a
    H[0, 0] = H[0, 0] * (1.0 + strain)  # expect: component_reassign
    return H


@wp.kernel
def lattice_energy(s: wp.array(dtype=wp.vec3), h_ref: wp.mat33, prm: wp.array(dtype=float), n_rep: float,
                   e: wp.array(dtype=float)):
    i, j = wp.tid()
    if j != i:
        H = strained_cell(h_ref, prm[0], prm[1])
        ds = s[i] - s[j]
        ds = ds - wp.vec3(wp.round(ds[0]), wp.round(ds[1]), wp.round(ds[2]))
        d = H * (ds * n_rep)
        r2 = wp.dot(d, d)
        if r2 < 6.25:
            wp.atomic_add(e, 0, 0.5 * lj_energy(r2, 1.0, 1.0) / float(s.shape[0]))


def crystal(n_rep):
    basis = np.array([[0.0, 0.0, 0.0], [0.5, 0.5, 0.5]])
    cells = np.array(np.meshgrid(*[np.arange(n_rep)] * 3, indexing="ij")).reshape(3, -1).T
    return ((cells[:, None, :] + basis[None]) / n_rep).reshape(-1, 3).astype(np.float32)


N_REP = 2
S = crystal(N_REP)
PARAMS0 = np.array([1.0, 0.02])  # lattice scale a, uniaxial strain e_xx
FD_EPS = 1e-3


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    s = wp.array(S, dtype=wp.vec3)
    e = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(lattice_energy, dim=(len(S), len(S)), inputs=[s, wp.mat33(H_REF), prm, float(N_REP)], outputs=[e])
    tape.backward(e)
    return float(e.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    E, g = evaluate(PARAMS0)
    print(f"E/N = {E:.5f}; dE/da = {g[0]:.5f}, dE/de_xx = {g[1]:.5f}")
