"""Estimate the four Lotka-Volterra rates from noisy-free population
counts of eight ecosystems, with hand-written SGD + momentum on the host."""
import numpy as np
import warp as wp

wp.config.quiet = True

B = 8
STEPS = 40
DT = 0.05
THETA0 = np.array([0.8, 0.4, 0.9, 0.3])
THETA_TRUE = np.array([1.0, 0.5, 0.8, 0.4])
LR = 5.0e-4
MU = 0.5
ITERS = 3


@wp.kernel
def lv_step(pop: wp.array2d(dtype=wp.vec2), t: int, th: wp.array(dtype=float)):
    e = wp.tid()
    s = pop[t, e]
    x = s[0]
    y = s[1]
    dx = th[0] * x - th[1] * x * y
    dy = -th[2] * y + th[3] * x * y
    pop[t + 1, e] = wp.vec2(x + DT * dx, y + DT * dy)


@wp.kernel
def count_misfit(pop: wp.array2d(dtype=wp.vec2), obs: wp.array2d(dtype=wp.vec2), w: float,
                 loss: wp.array(dtype=float)):
    t, e = wp.tid()
    d = pop[t, e] - obs[t, e]
    wp.atomic_add(loss, 0, w * wp.dot(d, d))


def initial_pops():
    x0 = np.linspace(1.0, 2.5, B)
    y0 = np.linspace(1.5, 0.6, B)
    return np.stack([x0, y0], axis=1).astype(np.float32)


def simulate(th, requires_grad):
    pop = wp.zeros((STEPS + 1, B), dtype=wp.vec2, requires_grad=requires_grad)
    pop_np = np.zeros((STEPS + 1, B, 2), dtype=np.float32)
    pop_np[0] = initial_pops()
    pop.assign(pop_np)
    for t in range(STEPS):
        wp.launch(lv_step, dim=B, inputs=[pop, t, th])
    return pop


OBS = simulate(wp.array(THETA_TRUE.astype(np.float32), dtype=float), False).numpy().copy()


def objective(theta):
    th = wp.array(theta.astype(np.float32), dtype=float)
    loss = wp.zeros(1, dtype=float)
    wp.launch(count_misfit, dim=(STEPS + 1, B), inputs=[simulate(th, False), wp.array(OBS, dtype=wp.vec2),
                                                        1.0 / B], outputs=[loss])
    return float(loss.numpy()[0])


def fit(iters, log=False):
    theta = THETA0.copy()
    vel = np.zeros_like(theta)
    obs = wp.array(OBS, dtype=wp.vec2)
    th = wp.array(theta.astype(np.float32), dtype=float, requires_grad=True)
    tape = wp.Tape()
    for it in range(iters):
        th.assign(theta.astype(np.float32))
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        with tape:
            pop = simulate(th, True)
            wp.launch(count_misfit, dim=(STEPS + 1, B), inputs=[pop, obs, 1.0 / B], outputs=[loss])
        g = th.grad.numpy().copy()  # expect: grad_read
        tape.backward(loss)
        at = theta.copy()
        vel = MU * vel + g
        used = np.array(g, dtype=np.float64)
        theta = theta - LR * vel
        tape.reset()
        if log:
            print(f"iter {it:2d} misfit {loss.numpy()[0]:.4f} theta {np.round(theta, 3)}")
    return at, used


def verify():
    at, ad = fit(ITERS)
    h = 1.0e-3
    fd = np.array([(objective(at + h * e) - objective(at - h * e)) / (2 * h) for e in np.eye(at.size)])
    return ad, fd


if __name__ == "__main__":
    fit(12, log=True)
