"""Light-curve fit of a Cepheid variable from V-band photometry.

Flux model F(t) = F0 (1 + A sin(phase) + 0.3 A sin(2 phase + dphi)), phase =
2 pi (t - epoch) / period with the ephemeris fixed (a @wp.struct). The
photometry is in magnitudes, so the chi-square is evaluated on the host on
m = -2.5 log10(F); the flux adjoint is written into flux.grad before
tape.backward().
"""
import numpy as np
import warp as wp

wp.config.quiet = True


@wp.struct
class Ephemeris:
    period: float
    epoch: float


@wp.kernel
def cepheid_flux(ep: Ephemeris, p: wp.array(dtype=float), t: wp.array(dtype=float), flux: wp.array(dtype=float)):
    i = wp.tid()
    ph = 2.0 * wp.pi * (t[i] - ep.epoch) / ep.period
    flux[i] = p[0] * (1.0 + p[1] * wp.sin(ph) + 0.3 * p[1] * wp.sin(2.0 * ph + p[2]))


rng = np.random.default_rng(5)
T_OBS = np.sort(rng.uniform(0.0, 30.0, 45))
EPH = Ephemeris()
EPH.period = 5.366
EPH.epoch = 0.7
_ph = 2 * np.pi * (T_OBS - 0.7) / 5.366
M_OBS = -2.5 * np.log10(1.1 * (1 + 0.35 * np.sin(_ph) + 0.105 * np.sin(2 * _ph + 0.8))) + rng.normal(0, 0.02, 45)
SIGMA = 0.02


def evaluate(p):
    par = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    flux = wp.zeros(len(T_OBS), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(cepheid_flux, dim=len(T_OBS), inputs=[EPH, par, wp.array(T_OBS, dtype=float)], outputs=[flux])
    f = flux.numpy().astype(np.float64)
    r = -2.5 * np.log10(f) - M_OBS
    chi2 = np.sum((r / SIGMA) ** 2)
    flux.grad.assign((2.0 * r / SIGMA**2 * (-2.5)).astype(np.float32))  # expect: seeding
    tape.backward()
    return chi2, par.grad.numpy().copy()


PARAMS0 = [1.0, 0.3, 0.5]
FD_EPS = 1e-4

if __name__ == "__main__":
    p = np.array(PARAMS0)
    chi2, g = evaluate(p)
    print(f"chi2 = {chi2:.1f}  dchi2/d(F0, A, dphi) = {g}")
