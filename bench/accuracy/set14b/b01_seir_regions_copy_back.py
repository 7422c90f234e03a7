"""Regional SEIR outbreak fitted to weekly reported incidence.

Four regions share transmission (beta), incubation (sigma) and recovery
(gamma) rates; each region starts from its own initial infections. The simulator keeps
one state buffer per outbreak and advances it with forward Euler.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_REG = 4
N_STEPS = 80
DT = 0.5
SEED_I = np.array([1e-3, 4e-3, 2e-3, 6e-3], dtype=np.float32)


@wp.kernel
def seir_step(y: wp.array(dtype=wp.vec4), theta: wp.array(dtype=float), dt: float, t: int,
              y_new: wp.array(dtype=wp.vec4), inc: wp.array2d(dtype=float)):
    i = wp.tid()
    s = y[i][0]
    e = y[i][1]
    c = y[i][2]
    r = y[i][3]
    force = theta[0] * s * c
    y_new[i] = wp.vec4(s - dt * force, e + dt * (force - theta[1] * e),
                       c + dt * (theta[1] * e - theta[2] * c), r + dt * theta[2] * c)
    inc[t, i] = dt * theta[1] * e


@wp.kernel
def weekly_misfit(inc: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    w, i = wp.tid()
    tot = float(0.0)
    for k in range(14):
        tot += inc[w * 14 + k, i]
    d = 100.0 * (tot - obs[w, i])
    wp.atomic_add(loss, 0, d * d)


class Outbreak:
    def __init__(self, theta):
        y0 = np.stack([1.0 - 2.0 * SEED_I, SEED_I, SEED_I, np.zeros(N_REG, np.float32)], axis=1)
        self.y = wp.array(y0, dtype=wp.vec4, requires_grad=True)
        self.theta = theta
        self.inc = wp.zeros((N_STEPS, N_REG), dtype=float, requires_grad=True)

    def step(self, t):
        y_new = wp.empty_like(self.y)
        wp.launch(seir_step, dim=N_REG, inputs=[self.y, self.theta, DT, t], outputs=[y_new, self.inc])
        wp.copy(self.y, y_new)  # expect: overwrite


def simulate(p):
    theta = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    ob = Outbreak(theta)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for t in range(N_STEPS):
            ob.step(t)
        wp.launch(weekly_misfit, dim=(N_STEPS // 14, N_REG), inputs=[ob.inc, OBS], outputs=[loss])
    return tape, theta, loss, ob.inc


TRUE = np.array([0.55, 0.30, 0.20])
PARAMS0 = np.array([0.45, 0.25, 0.17])
FD_EPS = 1e-3
OBS = wp.zeros((N_STEPS // 14, N_REG), dtype=float)
_, _, _, _inc = simulate(TRUE)
OBS = wp.array(_inc.numpy()[: (N_STEPS // 14) * 14].reshape(-1, 14, N_REG).sum(axis=1), dtype=float)


def evaluate(p):
    tape, theta, loss, _ = simulate(p)
    tape.backward(loss)
    return float(loss.numpy()[0]), theta.grad.numpy().copy()


if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print(f"misfit {l:.5f}  d/d(beta, sigma, gamma) = {g}")
