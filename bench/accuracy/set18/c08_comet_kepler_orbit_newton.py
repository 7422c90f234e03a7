# correct: comet orbit fit that solves Kepler's equation by 14 Newton steps from E0 = +-pi (converged to float precision) before the distances.
"""Orbit of a near-parabolic comet from heliocentric distances.

Eight radar/astrometric distance fixes around perihelion. For semi-major
axis a and eccentricity e, the eccentric anomaly solves Kepler's equation
E = M + e sin E, solved by Newton's method from E0 = +-pi; the distance is
r = a (1 - e cos E). The solved anomalies are printed with the fit.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

GM = 2.959122e-4  # AU^3 / day^2
T_OBS = np.array([-40.0, -28.0, -17.0, -8.0, 3.0, 12.0, 24.0, 37.0], dtype=np.float32)  # days from perihelion
A_TRUE, E_TRUE = 3.1, 0.86


def _kepler_np(m, e):
    ea = np.where(m >= 0, np.pi, -np.pi) * np.ones_like(m)
    for _ in range(60):
        ea = ea - (ea - e * np.sin(ea) - m) / (1.0 - e * np.cos(ea))
    return ea


def _mean_anomaly(a, t):
    return np.sqrt(GM / a**3) * t


R_OBS = (A_TRUE * (1.0 - E_TRUE * np.cos(_kepler_np(_mean_anomaly(A_TRUE, T_OBS.astype(np.float64)), E_TRUE))))
R_OBS = R_OBS.astype(np.float32)


@wp.kernel
def mean_anomaly(t: wp.array(dtype=float), p: wp.array(dtype=float), m: wp.array(dtype=float)):
    i = wp.tid()
    a = p[0]
    m[i] = wp.sqrt(GM / (a * a * a)) * t[i]


@wp.kernel
def kepler_newton(m: wp.array(dtype=float), e_in: wp.array(dtype=float), p: wp.array(dtype=float),
                  e_out: wp.array(dtype=float)):
    i = wp.tid()
    x = e_in[i]
    g = x - p[1] * wp.sin(x) - m[i]
    e_out[i] = x - g / (1.0 - p[1] * wp.cos(x))


@wp.kernel
def start_guess(m: wp.array(dtype=float), e_out: wp.array(dtype=float)):
    i = wp.tid()
    e_out[i] = wp.where(m[i] >= 0.0, wp.pi, -wp.pi)


@wp.kernel
def distance_misfit(ea: wp.array(dtype=float), p: wp.array(dtype=float), r_obs: wp.array(dtype=float),
                    loss: wp.array(dtype=float)):
    i = wp.tid()
    r = p[0] * (1.0 - p[1] * wp.cos(ea[i]))
    d = r - r_obs[i]
    wp.atomic_add(loss, 0, d * d)


N_OBS = len(T_OBS)
t_d = wp.array(T_OBS, dtype=float)
r_d = wp.array(R_OBS, dtype=float)
PARAMS0 = [3.0, 0.85]


def fit_step(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    m = wp.zeros(N_OBS, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(mean_anomaly, dim=N_OBS, inputs=[t_d, params], outputs=[m])
        ea = wp.zeros(N_OBS, dtype=float, requires_grad=True)
        wp.launch(start_guess, dim=N_OBS, inputs=[m], outputs=[ea])
        for k in range(14):
            nxt = wp.zeros(N_OBS, dtype=float, requires_grad=True)
            wp.launch(kepler_newton, dim=N_OBS, inputs=[m, ea, params], outputs=[nxt])
            ea = nxt
        wp.launch(distance_misfit, dim=N_OBS, inputs=[ea, params, r_d], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64), ea.numpy()


def _exact_loss(p):
    a, e = float(p[0]), float(p[1])
    ea = _kepler_np(_mean_anomaly(a, T_OBS.astype(np.float64)), e)
    return float(np.sum((a * (1.0 - e * np.cos(ea)) - R_OBS) ** 2))


def verify():
    _, ad, _ = fit_step(PARAMS0)
    p0 = np.array(PARAMS0, dtype=np.float64)
    fd = np.zeros(2)
    for k in range(2):
        d = np.zeros(2)
        d[k] = 1e-6
        fd[k] = (_exact_loss(p0 + d) - _exact_loss(p0 - d)) / 2e-6
    return ad, fd


if __name__ == "__main__":
    l, g, ea = fit_step(PARAMS0)
    print(f"eccentric anomalies {np.round(ea, 4)}")
    print(f"distance misfit {l:.3e}  dL/da={g[0]:.4e}  dL/de={g[1]:.4e}")
