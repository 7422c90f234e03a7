# correct: b27_irrigation_schedule_adam (the kept tape is reset() at the start of every iteration, not only zeroed)
"""Irrigation schedule for eight fields over a 30-day dry spell, optimised with Adam.

Decision: irrigation depth per 5-day block (mm/day, same for all fields).
Cost: crop water stress (smooth deficit below the stress threshold) plus the
price of the water. One tape is kept by the scheduler; every iteration
starts with tape.reset(), which drops the previous recording and zeroes the
gradients, before it is recorded again.
"""
import numpy as np
import warp as wp
import warp.optim

from _soilwater import N_BLOCK, N_DAY, N_FIELD, seasonal_cost, weather

wp.config.quiet = True

PRICE = 0.05
IRR0 = np.full(N_BLOCK, 2.0, dtype=np.float32)


class Scheduler:
    def __init__(self, lr=0.2):
        rain, et0, theta0 = weather()
        self.rain = wp.array(rain, dtype=float)
        self.et0 = wp.array(et0, dtype=float)
        self.theta = wp.zeros((N_DAY + 1, N_FIELD), dtype=float, requires_grad=True)
        self.theta0 = theta0
        self.irr = wp.array(IRR0, dtype=float, requires_grad=True)
        self.cost = wp.zeros(1, dtype=float, requires_grad=True)
        self.opt = warp.optim.Adam([self.irr], lr=lr)
        self.tape = wp.Tape()
        self.history = []

    def iterate(self):
        self.tape.reset()
        self.cost.zero_()
        self.theta.assign(np.vstack([self.theta0[None, :], np.zeros((N_DAY, N_FIELD), dtype=np.float32)]))
        with self.tape:
            seasonal_cost(self.theta, self.rain, self.et0, self.irr, PRICE, self.cost)
        self.tape.backward(self.cost)
        self.history.append((self.irr.numpy().copy(), self.irr.grad.numpy().copy(), float(self.cost.numpy()[0])))
        self.opt.step([self.irr.grad])


def objective(sched, irr):
    rain, et0, theta0 = weather()
    theta = wp.array(np.vstack([theta0[None, :], np.zeros((N_DAY, N_FIELD), dtype=np.float32)]), dtype=float)
    cost = wp.zeros(1, dtype=float)
    seasonal_cost(theta, sched.rain, sched.et0, wp.array(np.asarray(irr, dtype=np.float32), dtype=float), PRICE, cost)
    return float(cost.numpy()[0])


def verify(n_iter=4, eps=1e-3):
    """Gradient Adam consumed at the last iteration vs central FD of the seasonal cost there."""
    s = Scheduler()
    for _ in range(n_iter):
        s.iterate()
    irr, g, _ = s.history[-1]
    fd = []
    for k in range(irr.size):
        e = np.zeros(irr.size, dtype=np.float64)
        e[k] = eps
        fd.append((objective(s, irr + e) - objective(s, irr - e)) / (2 * eps))
    return g, np.array(fd)


if __name__ == "__main__":
    s = Scheduler()
    for it in range(8):
        s.iterate()
        irr, g, c = s.history[-1]
        print(f"iter {it}: seasonal cost {c:.3f}, irrigation {np.round(irr, 2)} mm/day")
