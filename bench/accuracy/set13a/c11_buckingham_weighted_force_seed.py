# correct: backward is seeded by hand over the per-configuration residuals instead of from a scalar loss, but the seed is exactly the Boltzmann weights of the weighted objective the program reports.
"""Buckingham exp-6 potential (A, B, C) fitted to reference forces of 10 argon
trimers, with configurations weighted by their Boltzmann factor at kT = 0.5 (so
that low-energy structures dominate the fit). The residuals are kept per
configuration and atom so that outliers can be inspected.
"""
import numpy as np
import warp as wp

from _refdata import reference_energy, reference_forces, trimer_configs

KT = 0.5


@wp.func
def buckingham_dr(r: float, A: float, B: float, C: float):
    return -A * B * wp.exp(-B * r) + 6.0 * C / wp.pow(r, 7.0)


@wp.kernel
def model_forces(x: wp.array2d(dtype=wp.vec3), prm: wp.array(dtype=float), f: wp.array2d(dtype=wp.vec3)):
    c, i = wp.tid()
    fi = wp.vec3()
    for j in range(x.shape[1]):
        if j != i:
            d = x[c, i] - x[c, j]
            r = wp.length(d)
            fi -= buckingham_dr(r, prm[0], prm[1], prm[2]) * d / r
    f[c, i] = fi


@wp.kernel
def force_residual(f: wp.array2d(dtype=wp.vec3), f_ref: wp.array2d(dtype=wp.vec3), res: wp.array2d(dtype=float)):
    c, i = wp.tid()
    df = f[c, i] - f_ref[c, i]
    res[c, i] = wp.dot(df, df) / 3.0


CONFS = trimer_configs(10, seed=31)
F_REF = np.array([reference_forces(x) for x in CONFS], dtype=np.float32)
E_REF = np.array([reference_energy(x) for x in CONFS])
_w = np.exp(-(E_REF - E_REF.min()) / KT)
# weight of each (configuration, atom) residual: Boltzmann weight / atoms per configuration
WEIGHTS = np.repeat((_w / _w.sum())[:, None] / CONFS.shape[1], CONFS.shape[1], axis=1).astype(np.float32)
PARAMS0 = np.array([250.0, 5.5, 1.2])  # A, B, C
FD_EPS = [0.05, 1e-3, 1e-3]


def evaluate(p, show=False):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(CONFS, dtype=wp.vec3)
    f_ref = wp.array(F_REF, dtype=wp.vec3)
    f = wp.zeros(x.shape, dtype=wp.vec3, requires_grad=True)
    res = wp.zeros(x.shape, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(model_forces, dim=x.shape, inputs=[x, prm], outputs=[f])
        wp.launch(force_residual, dim=x.shape, inputs=[f, f_ref], outputs=[res])
    r = res.numpy()
    objective = float((WEIGHTS * r).sum())
    if show:
        c, i = np.unravel_index(np.argmax(r), r.shape)
        print(f"weighted residual {objective:.4f}; worst: configuration {c}, atom {i} ({r[c, i]:.3f})")
    tape.backward(grads={res: wp.array(WEIGHTS, dtype=float)})
    return objective, prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(3):
        L, g = evaluate(p, show=(it == 0))
        print(f"iter {it}: objective {L:.4f} grad {g}")
        p = p - np.array([1.0, 1e-4, 1e-4]) * g
