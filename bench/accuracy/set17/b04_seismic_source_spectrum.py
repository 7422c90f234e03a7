"""Earthquake source inversion from displacement spectra: fit log10 seismic
moment, corner frequency and path attenuation t* (Brune omega-square source)
with a Cauchy (robust) misfit, since two stations have site resonances."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

N_STA = 7
FREQ = np.geomspace(0.2, 20.0, 30).astype(np.float32)
C_ROB = 0.15            # Cauchy scale in log10 units
LN10 = 2.302585092994046


@wp.kernel
def brune_sq_residual(p: wp.array(dtype=float), freq: wp.array(dtype=float), dist_fac: wp.array(dtype=float),
                      obs: wp.array2d(dtype=float), sq: wp.array2d(dtype=float)):
    s, k = wp.tid()
    f = freq[k]
    fc = p[1]
    logA = p[0] - dist_fac[s] - wp.log10(1.0 + (f / fc) * (f / fc)) - 3.14159265 * p[2] * f / 2.302585
    r = logA - obs[s, k]
    sq[s, k] = r * r


rng = np.random.default_rng(3)
DIST_FAC = np.linspace(1.0, 2.2, N_STA).astype(np.float32)
_true = (15.3, 1.8, 0.035)
_pred = (_true[0] - DIST_FAC[:, None] - np.log10(1 + (FREQ / _true[1]) ** 2) - np.pi * _true[2] * FREQ / LN10)
OBS = _pred + 0.04 * rng.standard_normal(_pred.shape)
OBS[2, 18:24] += 0.6      # site resonance
OBS[5, 8:12] -= 0.5
OBS_W = wp.array(OBS.astype(np.float32), dtype=float)
FREQ_W = wp.array(FREQ, dtype=float)
DIST_W = wp.array(DIST_FAC, dtype=float)
N = OBS.size

PARAMS0 = np.array([15.0, 2.3, 0.03])
FD_EPS = np.array([1e-3, 1e-3, 1e-4])


def evaluate(p):
    p_w = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    sq = wp.zeros((N_STA, len(FREQ)), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(brune_sq_residual, dim=sq.shape, inputs=[p_w, FREQ_W, DIST_W, OBS_W], outputs=[sq])
    sq_h = sq.numpy().astype(np.float64)
    loss = float(np.mean(np.log1p(sq_h / C_ROB**2)))
    sq.grad.fill_(1.0 / N)  # expect: seeding
    tape.backward()
    return loss, p_w.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"Cauchy spectral misfit {L:.5f}; grad [log10 M0, fc, t*] = {g}")
