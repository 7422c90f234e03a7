# correct: host-side weighted least squares 0.5 sum (r / sigma)^2, backward seeded with r / sigma^2
"""Valley-glacier flowline: invert the Glen rate factor, a basal sliding
coefficient and a radar thickness correction from feature-tracked surface
velocities (shallow-ice approximation, n = 3).

u_s = 2 A / (n + 1) tau_b^n H + beta (tau_b / 100 kPa)^3,  tau_b = rho g H' sin(alpha),
H' = f_H H. Warp returns the velocity residuals; the weighted least-squares
cost 0.5 sum (r / sigma)^2 is formed with NumPy.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_PT = 24
X_KM = np.linspace(0.5, 9.0, N_PT)
H_RADAR = (80.0 + 260.0 * np.sin(np.pi * X_KM / 9.6) ** 0.7).astype(np.float32)  # m
SLOPE = np.deg2rad(9.0 - 0.5 * X_KM).astype(np.float32)
SIG_U = (2.0 + 0.25 * X_KM).astype(np.float32)  # m/yr, feature-tracking error grows down-glacier
RHO_G = 917.0 * 9.81
SEC_YR = 3.156e7


@wp.kernel
def velocity_residual(prm: wp.array(dtype=float), h: wp.array(dtype=float), slope: wp.array(dtype=float),
                      u_obs: wp.array(dtype=float), res: wp.array(dtype=float)):
    j = wp.tid()
    hh = prm[2] * h[j]
    tau = RHO_G * hh * wp.sin(slope[j]) / 1.0e5  # in 100 kPa
    # A in 1e-24 Pa^-3 s^-1: 2A/(n+1) (1e5 tau)^3 H  -> m/yr
    u_def = 0.5 * prm[0] * 1.0e-9 * tau * tau * tau * hh * SEC_YR
    u_sl = prm[1] * tau * tau * tau
    res[j] = u_def + u_sl - u_obs[j]


def _u_obs():
    hh = 1.04 * H_RADAR.astype(np.float64)
    tau = RHO_G * hh * np.sin(SLOPE) / 1e5
    u = 0.5 * 2.4e-9 * tau**3 * hh * SEC_YR + 11.0 * tau**3
    return (u + SIG_U * np.random.default_rng(13).standard_normal(N_PT)).astype(np.float32)


H_W, SLOPE_W, UOBS_W = (wp.array(a, dtype=float) for a in (H_RADAR, SLOPE, _u_obs()))


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    res = wp.zeros(N_PT, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(velocity_residual, dim=N_PT, inputs=[prm, H_W, SLOPE_W, UOBS_W], outputs=[res])
    res_h = res.numpy()
    cost = 0.5 * float(np.sum((res_h / SIG_U) ** 2))
    tape.backward(grads={res: wp.array(res_h / SIG_U**2, dtype=float)})
    return cost, prm.grad.numpy().copy()


PARAMS0 = np.array([2.0, 14.0, 1.0])  # A (1e-24 Pa^-3 s^-1), beta (m/yr), f_H
FD_EPS = np.array([1e-3, 1e-3, 1e-4])

if __name__ == "__main__":
    c, g = evaluate(PARAMS0)
    print(f"velocity cost {c:.2f}; d/d(A, beta, f_H) = {g}")
