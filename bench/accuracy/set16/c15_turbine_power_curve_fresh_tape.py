# correct: a fresh tape is recorded every Adam step and zeroed after the update
"""Wind-turbine power curve from 10-minute SCADA records: a logistic curve
in the air-density-corrected wind speed, P = P_r / (1 + exp(-(v_eq - v50) / s)),
fitted with warp.optim.Adam (cut-in / rated region of a 3.6 MW machine).
"""
import numpy as np
import warp as wp
from warp.optim import Adam

wp.config.quiet = True

N_REC = 240
RHO0 = 1.225
_rng = np.random.default_rng(23)
WIND = _rng.uniform(3.0, 16.0, N_REC).astype(np.float32)
RHO = _rng.uniform(1.16, 1.27, N_REC).astype(np.float32)
_veq = WIND * (RHO / RHO0) ** (1.0 / 3.0)
POWER = (3.6 / (1.0 + np.exp(-(_veq - 9.1) / 1.25)) + 0.05 * _rng.standard_normal(N_REC)).astype(np.float32)  # MW


@wp.kernel
def curve_misfit(prm: wp.array(dtype=float), wind: wp.array(dtype=float), rho: wp.array(dtype=float),
                 power: wp.array(dtype=float), loss: wp.array(dtype=float)):
    j = wp.tid()
    veq = wind[j] * wp.pow(rho[j] / RHO0, 1.0 / 3.0)
    p = prm[2] / (1.0 + wp.exp(-(veq - prm[0]) / prm[1]))
    d = p - power[j]
    wp.atomic_add(loss, 0, d * d / float(N_REC))


DATA = [wp.array(a, dtype=float) for a in (WIND, RHO, POWER)]


class PowerCurveFit:
    def __init__(self, p0, lr=0.05):
        self.prm = wp.array(np.asarray(p0, dtype=np.float32), dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.opt = Adam([self.prm], lr=lr)
        self.tape = wp.Tape()

    def step(self):
        self.loss.zero_()
        self.tape = wp.Tape()
        with self.tape:
            wp.launch(curve_misfit, dim=N_REC, inputs=[self.prm] + DATA, outputs=[self.loss])
        self.tape.backward(self.loss)
        used = self.prm.grad.numpy().copy()
        self.opt.step([self.prm.grad])
        self.tape.zero()
        return used


def objective(p):
    loss = wp.zeros(1, dtype=float)
    wp.launch(curve_misfit, dim=N_REC, inputs=[wp.array(np.asarray(p, dtype=np.float32), dtype=float)] + DATA,
              outputs=[loss])
    return float(loss.numpy()[0])


def verify():
    fit = PowerCurveFit([8.0, 1.6, 3.2])
    for _ in range(5):
        fit.step()
    p = fit.prm.numpy().astype(np.float64)
    g = fit.step()
    fd = []
    for k in range(3):
        pp, pm = p.copy(), p.copy()
        pp[k] += 1e-3
        pm[k] -= 1e-3
        fd.append((objective(pp) - objective(pm)) / 2e-3)
    return g, np.array(fd)


if __name__ == "__main__":
    fit = PowerCurveFit([8.0, 1.6, 3.2])
    for _ in range(200):
        fit.step()
    v50, s, pr = fit.prm.numpy()
    print(f"v50={v50:.2f} m/s  s={s:.2f} m/s  P_rated={pr:.2f} MW  (MSE {objective(fit.prm.numpy()):.4f} MW^2)")
