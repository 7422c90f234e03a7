"""Pacejka magic-formula lateral tyre model from a steady-cornering test.

For each axle the slip angle follows from the vehicle states, and the
lateral force F = D sin(C atan(B a - E (B a - atan(B a)))) is compared with
the force-hub readings. B, C, D and E are shared by both axles.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

RNG = np.random.default_rng(7)
N_OBS = 12
VX = np.full(N_OBS, 20.0, dtype=np.float32)
VY = np.linspace(-1.2, 1.4, N_OBS).astype(np.float32)
YAW = np.linspace(0.05, 0.32, N_OBS).astype(np.float32)
ARM = [1.2, -1.5]  # front / rear axle distance from the centre of gravity, m
STEER = [0.07, 0.0]  # road-wheel steer angle, rad


def _mf(a, b, c, d, e):
    return d * np.sin(c * np.arctan(b * a - e * (b * a - np.arctan(b * a))))


FY_OBS = []
for arm, steer in zip(ARM, STEER):
    alpha = np.arctan((VY + arm * YAW) / VX) - steer
    FY_OBS.append((_mf(alpha, 10.0, 1.9, 4.2, 0.97) + 0.03 * RNG.standard_normal(N_OBS)).astype(np.float32))


@wp.kernel
def slip_angle(vx: wp.array(dtype=float), vy: wp.array(dtype=float), yaw: wp.array(dtype=float), arm: float,
               steer: float, alpha: wp.array(dtype=float)):
    i = wp.tid()
    alpha[i] = wp.atan((vy[i] + arm * yaw[i]) / vx[i]) - steer


@wp.kernel
def force_misfit(alpha: wp.array(dtype=float), p: wp.array(dtype=float), fy_obs: wp.array(dtype=float),
                 loss: wp.array(dtype=float)):
    i = wp.tid()
    ba = p[0] * alpha[i]
    fy = p[2] * wp.sin(p[1] * wp.atan(ba - p[3] * (ba - wp.atan(ba))))
    r = fy - fy_obs[i]
    wp.atomic_add(loss, 0, r * r / float(N_OBS))


vx_d, vy_d, yaw_d = (wp.array(a, dtype=float) for a in (VX, VY, YAW))
fy_d = [wp.array(f, dtype=float) for f in FY_OBS]
PARAMS0 = [9.0, 1.8, 4.0, 0.9]
FD_EPS = 1e-3


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    alpha = wp.zeros(N_OBS, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for k in range(2):
            wp.launch(slip_angle, dim=N_OBS, inputs=[vx_d, vy_d, yaw_d, ARM[k], STEER[k]], outputs=[alpha])  # expect: overwrite
            wp.launch(force_misfit, dim=N_OBS, inputs=[alpha, params, fy_d[k]], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"force misfit {l:.4f} kN^2  grad B/C/D/E = {np.round(g, 4)}")
