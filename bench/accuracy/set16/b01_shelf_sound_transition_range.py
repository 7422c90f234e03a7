"""Shallow-shelf transmission loss: fit the spherical-to-cylindrical transition
range and the volume absorption to received levels from a towed source.

Received level RL(r) = SL - TL(r) with
    TL(r) = 20 log10(r)                           r <  r0   (spherical)
    TL(r) = 20 log10(r0) + 10 log10(r / r0)       r >= r0   (cylindrical)
plus alpha * r absorption (dB/km). The spreading law has a kink at r0, so it
carries a hand-written adjoint with the one-sided derivatives of each branch.
Parameters: source level SL (dB re 1 uPa), transition range r0 (km),
absorption alpha (dB/km).
"""
import numpy as np
import warp as wp

wp.config.quiet = True

LN10 = 2.302585093
RANGES_KM = np.array([0.4, 0.7, 1.1, 1.6, 2.3, 3.1, 3.9, 6.2, 8.5, 11.0, 14.5, 19.0, 24.0, 31.0],
                     dtype=np.float32)
N_HYD = RANGES_KM.size
_rng = np.random.default_rng(3)


def _tl_true(r, r0=4.5, alpha=0.08):
    m, m0 = r * 1000.0, r0 * 1000.0
    sph = 20.0 * np.log10(m)
    cyl = 20.0 * np.log10(m0) + 10.0 * np.log10(m / m0)
    return np.where(r < r0, sph, cyl) + alpha * r


RL_OBS = (185.0 - _tl_true(RANGES_KM) + 0.8 * _rng.standard_normal(RANGES_KM.size)).astype(np.float32)


@wp.func
def spreading(r: float, r0: float):
    # ranges in km, levels in dB re 1 m
    if r < r0:
        return 20.0 * wp.log(r * 1000.0) / LN10
    return 20.0 * wp.log(r0 * 1000.0) / LN10 + 10.0 * wp.log(r / r0) / LN10


@wp.func_grad(spreading)
def adj_spreading(r: float, r0: float, adj_ret: float):
    if r < r0:
        wp.adjoint[r] += adj_ret * 20.0 / (r * LN10)
    else:
        wp.adjoint[r] += adj_ret * 10.0 / (r * LN10)
        wp.adjoint[r0] += adj_ret * 20.0 / (r0 * LN10)  # expect: custom_adjoint


@wp.kernel
def level_misfit(prm: wp.array(dtype=float), ranges: wp.array(dtype=float), rl_obs: wp.array(dtype=float),
                 loss: wp.array(dtype=float)):
    j = wp.tid()
    r = ranges[j]
    tl = spreading(r, prm[1]) + prm[2] * r
    d = prm[0] - tl - rl_obs[j]
    wp.atomic_add(loss, 0, d * d / float(N_HYD))


R_W = wp.array(RANGES_KM, dtype=float)
RL_W = wp.array(RL_OBS, dtype=float)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(level_misfit, dim=RANGES_KM.size, inputs=[prm, R_W, RL_W], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().copy()


PARAMS0 = np.array([183.0, 5.2, 0.05])
FD_EPS = np.array([1e-2, 1e-3, 1e-3])

if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(300):
        f, g = evaluate(p)
        p -= np.array([0.2, 0.05, 1e-4]) * g
    print(f"misfit {f:.3f} dB^2; SL={p[0]:.1f} dB, r0={p[1]:.2f} km, alpha={p[2]:.3f} dB/km")
