"""Cohesive energy of fcc argon (3x3x3 conventional cells, 108 atoms, minimum image):
the LJ pair energy is written as a function of r^2 with a hand-written adjoint
(@wp.func_grad) to save the square root. Fit of (a, epsilon, sigma) to the
experimental cohesive energy, in kcal/mol and Angstrom.
"""
import numpy as np
import warp as wp

E_EXP = -1.85  # kcal/mol per atom
N_CELL = 3
RC = 7.9


@wp.func
def lj_r2(r2: float, eps: float, sigma: float) -> float:
    s6 = wp.pow(sigma * sigma / r2, 3.0)
    return 4.0 * eps * (s6 * s6 - s6)


@wp.func_grad(lj_r2)
def adj_lj_r2(r2: float, eps: float, sigma: float, adj_ret: float):
    s6 = wp.pow(sigma * sigma / r2, 3.0)
    s12 = s6 * s6
    wp.adjoint[r2] += adj_ret * 4.0 * eps * (-12.0 * s12 + 6.0 * s6) / r2  # expect: custom_adjoint
    wp.adjoint[eps] += adj_ret * 4.0 * (s12 - s6)
    wp.adjoint[sigma] += adj_ret * 4.0 * eps * (12.0 * s12 - 6.0 * s6) / sigma


@wp.kernel
def cohesive_energy(s: wp.array(dtype=wp.vec3), prm: wp.array(dtype=float), n_cell: float, rc: float,
                    e: wp.array(dtype=float)):
    i, j = wp.tid()
    if j != i:
        box = prm[0] * n_cell
        ds = s[i] - s[j]
        ds = ds - wp.vec3(wp.round(ds[0]), wp.round(ds[1]), wp.round(ds[2]))
        d = ds * box
        r2 = wp.dot(d, d)
        if r2 < rc * rc:
            wp.atomic_add(e, 0, 0.5 * lj_r2(r2, prm[1], prm[2]) / float(s.shape[0]))


@wp.kernel
def fit_loss(e: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
    loss[0] = (e[0] - target) * (e[0] - target)


def fcc_fractional(n):
    basis = np.array([[0, 0, 0], [0.5, 0.5, 0], [0.5, 0, 0.5], [0, 0.5, 0.5]])
    cells = np.array(np.meshgrid(*[np.arange(n)] * 3, indexing="ij")).reshape(3, -1).T
    return ((cells[:, None, :] + basis[None]) / n).reshape(-1, 3).astype(np.float32)


S = fcc_fractional(N_CELL)
PARAMS0 = np.array([5.05, 0.238, 3.405])  # a (Angstrom), epsilon (kcal/mol), sigma (Angstrom)
FD_EPS = [1e-3, 1e-2, 1e-3]


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    s = wp.array(S, dtype=wp.vec3)
    e = wp.zeros(1, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(cohesive_energy, dim=(len(S), len(S)), inputs=[s, prm, float(N_CELL), RC], outputs=[e])
        wp.launch(fit_loss, dim=1, inputs=[e, E_EXP], outputs=[loss])
    tape.backward(loss)
    evaluate.e_coh = float(e.numpy()[0])
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"E_coh = {evaluate.e_coh:.4f} kcal/mol; loss {L:.5f}; d/d(a, eps, sigma) = {g}")
