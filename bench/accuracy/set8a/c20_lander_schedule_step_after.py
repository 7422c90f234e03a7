# correct: the Adam step reads the gradient right after backward(); gradients are cleared after the step
"""Soft landing: optimise a four-segment thrust schedule for a vertical lander with a
hand-written Adam optimiser (touchdown speed plus a fuel penalty)."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

SEGMENTS = 4
STEPS = 80
DT = 0.025


@wp.kernel
def lander_step(h: wp.array(dtype=wp.float64), v: wp.array(dtype=wp.float64), m: wp.array(dtype=wp.float64),
                schedule: wp.array(dtype=wp.float64), seg: int, dt: wp.float64,
                h_out: wp.array(dtype=wp.float64), v_out: wp.array(dtype=wp.float64),
                m_out: wp.array(dtype=wp.float64)):
    thrust = schedule[seg]
    a = thrust / m[0] - wp.float64(1.62)
    vn = v[0] + dt * a
    v_out[0] = vn
    h_out[0] = h[0] + dt * vn
    m_out[0] = m[0] - dt * wp.float64(0.02) * thrust


@wp.kernel
def touchdown_cost(h: wp.array(dtype=wp.float64), v: wp.array(dtype=wp.float64), m: wp.array(dtype=wp.float64),
                   m0: wp.float64, loss: wp.array(dtype=wp.float64)):
    loss[0] = v[0] * v[0] + wp.float64(4.0) * h[0] * h[0] + wp.float64(2.0) * (m0 - m[0])


class Lander:
    def __init__(self, h0=3.0, v0=-1.0, m0=1.0):
        self.m0 = m0
        self.h = [wp.array([h0], dtype=wp.float64, requires_grad=True)]
        self.v = [wp.array([v0], dtype=wp.float64, requires_grad=True)]
        self.m = [wp.array([m0], dtype=wp.float64, requires_grad=True)]
        for _ in range(STEPS):
            self.h.append(wp.zeros(1, dtype=wp.float64, requires_grad=True))
            self.v.append(wp.zeros(1, dtype=wp.float64, requires_grad=True))
            self.m.append(wp.zeros(1, dtype=wp.float64, requires_grad=True))
        self.loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)

    def simulate(self, schedule):
        per = STEPS // SEGMENTS
        for k in range(STEPS):
            wp.launch(lander_step, dim=1, inputs=[self.h[k], self.v[k], self.m[k], schedule, k // per, wp.float64(DT)],
                      outputs=[self.h[k + 1], self.v[k + 1], self.m[k + 1]])
        wp.launch(touchdown_cost, dim=1, inputs=[self.h[-1], self.v[-1], self.m[-1], wp.float64(self.m0)],
                  outputs=[self.loss])
        return self.loss


class Adam:
    def __init__(self, param, lr=0.05, b1=0.9, b2=0.999, eps=1e-8):
        self.param, self.lr, self.b1, self.b2, self.eps = param, lr, b1, b2, eps
        self.m = np.zeros(param.shape[0])
        self.v = np.zeros(param.shape[0])
        self.t = 0
        self.last_grad = None

    def step(self):
        g = self.param.grad.numpy().copy()
        self.last_grad = g
        self.t += 1
        self.m = self.b1 * self.m + (1 - self.b1) * g
        self.v = self.b2 * self.v + (1 - self.b2) * g * g
        mh = self.m / (1 - self.b1 ** self.t)
        vh = self.v / (1 - self.b2 ** self.t)
        self.param.assign(self.param.numpy() - self.lr * mh / (np.sqrt(vh) + self.eps))


def optimise(p0, iters, verbose=False):
    schedule = wp.array(p0, dtype=wp.float64, requires_grad=True)
    opt = Adam(schedule)
    history = []
    for it in range(iters):
        lander = Lander()
        before = schedule.numpy().copy()
        tape = wp.Tape()
        with tape:
            loss = lander.simulate(schedule)
        tape.backward(loss)
        opt.step()
        history.append((before, opt.last_grad, float(loss.numpy()[0])))
        if verbose:
            print(f"iter {it}: cost {history[-1][2]:.5f} schedule {np.round(schedule.numpy(), 3)}")
        tape.zero()
    return history


def objective(p):
    lander = Lander()
    return float(lander.simulate(wp.array(p, dtype=wp.float64)).numpy()[0])


def verify():
    history = optimise(np.array([1.2, 1.5, 1.8, 2.0]), 2)
    p, g_used, _ = history[1]
    fd = np.zeros_like(p)
    for i in range(len(p)):
        h = 1e-6
        pp, pm = p.copy(), p.copy()
        pp[i] += h
        pm[i] -= h
        fd[i] = (objective(pp) - objective(pm)) / (2 * h)
    return g_used, fd


if __name__ == "__main__":
    optimise(np.array([1.2, 1.5, 1.8, 2.0]), 6, verbose=True)
