"""Radial-velocity orbit of a warm Jupiter: fit eccentricity, semi-amplitude,
argument of periastron and mean anomaly at the first epoch to 28 spectrograph
velocities (period known from transits).

v(t) = K (cos(nu + omega) + e cos omega), nu the true anomaly of the
eccentric anomaly E(M, e) solved by _kepler_rv.
"""
import numpy as np
import warp as wp

from _kepler_rv import TWO_PI, eccentric_anomaly, true_anomaly

wp.config.quiet = True

PERIOD = 11.37  # days
EPOCHS = np.sort(np.random.default_rng(5).uniform(0.0, 60.0, 28)).astype(np.float32)
SIGMA = 3.0  # m/s


@wp.kernel
def rv_chi2(prm: wp.array(dtype=float), t: wp.array(dtype=float), v_obs: wp.array(dtype=float),
            chi2: wp.array(dtype=float)):
    j = wp.tid()
    e = prm[0]
    m = TWO_PI * t[j] / PERIOD + prm[3]
    ea = eccentric_anomaly(m, e)
    nu = true_anomaly(ea, e)
    v = prm[1] * (wp.cos(nu + prm[2]) + e * wp.cos(prm[2]))
    r = (v - v_obs[j]) / SIGMA
    wp.atomic_add(chi2, 0, r * r)


class RVFit:
    def __init__(self, epochs, v_obs):
        self.t = wp.array(epochs, dtype=float)
        self.v = wp.array(v_obs, dtype=float)

    def chi2(self, p, with_grad=True):
        prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=with_grad)
        out = wp.zeros(1, dtype=float, requires_grad=with_grad)
        tape = wp.Tape()
        with tape:
            wp.launch(rv_chi2, dim=self.t.shape[0], inputs=[prm, self.t, self.v], outputs=[out])
        if not with_grad:
            return float(out.numpy()[0]), None
        tape.backward(out)
        return float(out.numpy()[0]), prm.grad.numpy().copy()


def _synthetic(p_true):
    e, k, w, m0 = p_true
    m = TWO_PI * EPOCHS / PERIOD + m0
    ea = m.astype(np.float64)
    for _ in range(40):
        ea = ea - (ea - e * np.sin(ea) - m) / (1 - e * np.cos(ea))
    nu = 2 * np.arctan2(np.sqrt(1 + e) * np.sin(ea / 2), np.sqrt(1 - e) * np.cos(ea / 2))
    rng = np.random.default_rng(8)
    return (k * (np.cos(nu + w) + e * np.cos(w)) + SIGMA * rng.standard_normal(EPOCHS.size)).astype(np.float32)


FIT = RVFit(EPOCHS, _synthetic([0.32, 48.0, 1.1, 0.7]))


def evaluate(p):
    return FIT.chi2(p)


PARAMS0 = np.array([0.25, 45.0, 1.0, 0.8])
FD_EPS = np.array([1e-3, 1e-2, 1e-3, 1e-3])

if __name__ == "__main__":
    c, g = evaluate(PARAMS0)
    print(f"chi2 {c:.2f}; d/d(e, K, omega, M0) = {g}")
