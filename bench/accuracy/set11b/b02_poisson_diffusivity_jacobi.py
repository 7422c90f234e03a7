"""Recover a spatially varying diffusivity kappa(x) = exp(a0 + a1 x + a2 x^2)
from sensor readings of the steady state of -(kappa u')' = f, solved with a
fixed budget of Jacobi sweeps."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 40
SWEEPS = 60
H = 1.0 / (N + 1)
SENSORS = np.array([4, 9, 15, 20, 26, 31, 36], dtype=np.int32)
PARAMS0 = [0.1, -0.3, 0.4]
TRUE_PARAMS = [0.0, 0.5, -0.8]


@wp.kernel
def face_diffusivity(coef: wp.array(dtype=float), h: float, kface: wp.array(dtype=float)):
    # N + 1 faces between N interior nodes and the two walls
    j = wp.tid()
    x = float(j) * h + 0.5 * h
    kface[j] = wp.exp(coef[0] + coef[1] * x + coef[2] * x * x)


@wp.kernel
def jacobi_sweep(u: wp.array(dtype=float), kface: wp.array(dtype=float), f: wp.array(dtype=float), h: float,
                 u_new: wp.array(dtype=float)):
    i = wp.tid()
    n = u.shape[0]
    ul = float(0.0)
    ur = float(0.0)
    if i > 0:
        ul = u[i - 1]
    if i < n - 1:
        ur = u[i + 1]
    kl = kface[i]
    kr = kface[i + 1]
    u_new[i] = (kl * ul + kr * ur + h * h * f[i]) / (kl + kr)


@wp.kernel
def sensor_misfit(u: wp.array(dtype=float), idx: wp.array(dtype=wp.int32), obs: wp.array(dtype=float),
                  loss: wp.array(dtype=float)):
    s = wp.tid()
    d = u[idx[s]] - obs[s]
    wp.atomic_add(loss, 0, 100.0 * d * d)


class SteadyDiffusion:
    def __init__(self):
        x = (np.arange(N) + 1) * H
        self.f = wp.array((10.0 * np.sin(np.pi * x) + 4.0 * x).astype(np.float32), dtype=float)
        self.idx = wp.array(SENSORS, dtype=wp.int32)

    def solve(self, coef):
        kface = wp.zeros(N + 1, dtype=float, requires_grad=True)
        wp.launch(face_diffusivity, dim=N + 1, inputs=[coef, H], outputs=[kface])
        u = wp.zeros(N, dtype=float, requires_grad=True)
        for _ in range(SWEEPS):
            u_new = u  # expect: overwrite
            wp.launch(jacobi_sweep, dim=N, inputs=[u, kface, self.f, H], outputs=[u_new])
            u = u_new
        return u


MODEL = SteadyDiffusion()
OBS = MODEL.solve(wp.array(TRUE_PARAMS, dtype=float)).numpy()[SENSORS].copy()


def evaluate(p):
    coef = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    obs = wp.array(OBS, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        u = MODEL.solve(coef)
        wp.launch(sensor_misfit, dim=len(SENSORS), inputs=[u, MODEL.idx, obs], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), coef.grad.numpy().copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(15):
        l, g = evaluate(p)
        p -= 0.05 * g / max(1.0, np.linalg.norm(g))
        print(f"iter {it:2d} misfit {l:.4e} coef {np.round(p, 3)}")
