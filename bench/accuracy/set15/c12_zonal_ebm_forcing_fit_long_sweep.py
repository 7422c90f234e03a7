# correct: b12_zonal_ebm_forcing_fit (the taped relaxation runs 400 sweeps of the 0.9-contraction, so what is differentiated is the equilibrium the host reports)
"""Fit CO2 forcing and meridional heat transport of a zonal energy-balance model.

The equilibrium climate of a Budyko-Sellers model with smooth ice-albedo
feedback is found by damped relaxation (omega = 0.1, contraction about 0.9 per
sweep). The reported equilibrium is relaxed to a tolerance outside the tape;
the gradient of the equilibrium misfit comes from relaxation sweeps recorded
on a tape from the standard initial state: 400 of them, after which the
taped state agrees with the reported equilibrium (0.9^400 ~ 5e-19).
"""
import numpy as np
import warp as wp

from _ebm import N_BAND, misfit, sweep

wp.config.quiet = True

OMEGA = 0.1
T_INIT = np.full(N_BAND, 10.0, dtype=np.float32)
PARAMS0 = np.array([3.2, 3.4])  # F [W/m^2], D [W/m^2/K]
FD_EPS = np.array([1e-2, 1e-2])


def equilibrium(prm, tol=1e-5, max_sweeps=5000):
    t = wp.array(T_INIT, dtype=float)
    for _ in range(max_sweeps):
        t_new = sweep(t, prm, OMEGA)
        if np.max(np.abs(t_new.numpy() - t.numpy())) < tol:
            return t_new
        t = t_new
    return t


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    t_eq = equilibrium(prm)
    loss_eq = float(misfit(t_eq).numpy()[0])
    tape = wp.Tape()
    with tape:
        t = wp.array(T_INIT, dtype=float, requires_grad=True)
        for _ in range(400):
            t = sweep(t, prm, OMEGA)
        loss = misfit(t)
    tape.backward(loss)
    return loss_eq, prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    prm = wp.array(PARAMS0.astype(np.float32), dtype=float)
    t = equilibrium(prm).numpy()
    print(f"equilibrium: equator {t[N_BAND // 2]:.1f} C, poles {t[0]:.1f} / {t[-1]:.1f} C; misfit {L:.2f} K^2")
    print(f"d misfit / d(F, D) = {g}")
