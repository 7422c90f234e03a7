"""Harmonic analysis of a harbour tide gauge: amplitudes and phases of the
M2, S2, K1 and O1 constituents from two weeks of hourly sea level, with
the lunar nodal modulation applied to the lunar constituents.

h(t) = z0 + sum_k f_k(t) A_k cos(omega_k t - g_k)
"""
import numpy as np
import warp as wp

wp.config.quiet = True

OMEGA = np.array([28.9841042, 30.0, 15.0410686, 13.9430356], dtype=np.float32) * np.float32(np.pi / 180.0)  # rad/h
N_CON = OMEGA.size
LUNAR = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
T_HOURS = np.arange(0.0, 14 * 24.0, 1.0, dtype=np.float32)
N_OBS = T_HOURS.size
Z0 = 2.35  # m, datum offset


@wp.kernel
def nodal_factor(t: wp.array(dtype=float), f: wp.array(dtype=float)):
    i = wp.tid()
    # slow modulation of the lunar terms over the record (approximation of the 18.6-year cycle, local epoch)
    f[i] = 1.0 + 0.037 * wp.cos(2.0 * 3.14159265 * (t[i] / 24.0 + 3000.0) / 6798.4)


@wp.kernel
def synthesize(t: wp.array(dtype=float), f: wp.array(dtype=float), omega: wp.array(dtype=float),
               lunar: wp.array(dtype=float), prm: wp.array(dtype=float), h: wp.array(dtype=float)):
    i = wp.tid()
    s = float(Z0)
    for k in range(N_CON):
        fk = lunar[k] * f[i] + (1.0 - lunar[k])
        s += fk * prm[2 * k] * wp.cos(omega[k] * t[i] - prm[2 * k + 1])
    h[i] = s


@wp.kernel
def gauge_misfit(h: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = (h[i] - obs[i]) / 0.05
    wp.atomic_add(loss, 0, d * d / float(N_OBS))


T_W, OMEGA_W, LUNAR_W = wp.array(T_HOURS, dtype=float), wp.array(OMEGA, dtype=float), wp.array(LUNAR, dtype=float)


def sea_level(prm):
    f = wp.zeros_like(T_W)
    h = wp.zeros_like(T_W)  # expect: requires_grad
    wp.launch(nodal_factor, dim=N_OBS, inputs=[T_W], outputs=[f])
    wp.launch(synthesize, dim=N_OBS, inputs=[T_W, f, OMEGA_W, LUNAR_W, prm], outputs=[h])
    return h


TRUE = [1.21, 1.95, 0.42, 2.30, 0.18, 4.10, 0.13, 3.60]
OBS = wp.array(sea_level(wp.array(TRUE, dtype=float)).numpy()
               + 0.05 * np.random.default_rng(61).standard_normal(N_OBS).astype(np.float32), dtype=float)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        h = sea_level(prm)
        wp.launch(gauge_misfit, dim=N_OBS, inputs=[h, OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([1.1, 2.0, 0.5, 2.2, 0.2, 4.0, 0.1, 3.5])  # (A, g) for M2, S2, K1, O1
FD_EPS = 1e-3

if __name__ == "__main__":
    f, g = evaluate(PARAMS0)
    print(f"gauge misfit {f:.2f}; gradient over (A, g) of M2 S2 K1 O1: {np.round(g, 2)}")
