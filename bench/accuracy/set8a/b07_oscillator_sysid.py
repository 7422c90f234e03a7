"""System identification for a bank of damped oscillators (masses on springs):
recover stiffness and damping from sampled displacements with heavy-ball descent."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

MASSES = np.array([1.0, 1.5, 2.0, 3.0])
DT = 0.01
STEPS = 120
SAMPLE_EVERY = 10


@wp.kernel
def oscillator_step(x: wp.array(dtype=wp.float64), v: wp.array(dtype=wp.float64), m: wp.array(dtype=wp.float64),
                    theta: wp.array(dtype=wp.float64), dt: wp.float64,
                    x_out: wp.array(dtype=wp.float64), v_out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    k = theta[0]
    c = theta[1]
    a = (-k * x[i] - c * v[i] - wp.float64(0.4) * k * x[i] * x[i] * x[i]) / m[i]
    vn = v[i] + dt * a
    v_out[i] = vn
    x_out[i] = x[i] + dt * vn


@wp.kernel
def sample_misfit(x: wp.array(dtype=wp.float64), obs: wp.array2d(dtype=wp.float64), row: int,
                  loss: wp.array(dtype=wp.float64)):
    i = wp.tid()
    r = x[i] - obs[row, i]
    wp.atomic_add(loss, 0, r * r)


class OscillatorBank:
    def __init__(self):
        n = len(MASSES)
        self.n = n
        self.m = wp.array(MASSES, dtype=wp.float64)
        self.xs = [wp.array(np.full(n, 0.8), dtype=wp.float64, requires_grad=True)]
        self.vs = [wp.zeros(n, dtype=wp.float64, requires_grad=True)]
        for _ in range(STEPS):
            self.xs.append(wp.zeros(n, dtype=wp.float64, requires_grad=True))
            self.vs.append(wp.zeros(n, dtype=wp.float64, requires_grad=True))

    def simulate(self, theta, obs, loss):
        for k in range(STEPS):
            wp.launch(oscillator_step, dim=self.n, inputs=[self.xs[k], self.vs[k], self.m, theta, wp.float64(DT)],
                      outputs=[self.xs[k + 1], self.vs[k + 1]])
            if (k + 1) % SAMPLE_EVERY == 0:
                wp.launch(sample_misfit, dim=self.n, inputs=[self.xs[k + 1], obs, (k + 1) // SAMPLE_EVERY - 1],
                          outputs=[loss])
        return loss


def synth_observations():
    bank = OscillatorBank()
    theta = wp.array([6.0, 0.5], dtype=wp.float64)
    for k in range(STEPS):
        wp.launch(oscillator_step, dim=bank.n, inputs=[bank.xs[k], bank.vs[k], bank.m, theta, wp.float64(DT)],
                  outputs=[bank.xs[k + 1], bank.vs[k + 1]])
    rows = [bank.xs[k].numpy() for k in range(SAMPLE_EVERY, STEPS + 1, SAMPLE_EVERY)]
    return wp.array(np.array(rows), dtype=wp.float64)


class HeavyBall:
    def __init__(self, param, lr, beta=0.5):
        self.param = param
        self.lr = lr
        self.beta = beta
        self.mom = np.zeros(param.shape[0])
        self.last_grad = None

    def step(self):
        g = self.param.grad.numpy().copy()
        self.last_grad = g
        self.mom = self.beta * self.mom + g
        self.param.assign(self.param.numpy() - self.lr * self.mom)


def train(theta0, iters, verbose=False):
    obs = synth_observations()
    bank = OscillatorBank()
    theta = wp.array(theta0, dtype=wp.float64, requires_grad=True)
    loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    opt = HeavyBall(theta, lr=0.4)
    history = []
    for it in range(iters):
        before = theta.numpy().copy()
        tape = wp.Tape()
        with tape:
            bank.simulate(theta, obs, loss)
        tape.backward(loss)
        value = float(loss.numpy()[0])
        opt.step()
        history.append((before, opt.last_grad, value))
        if verbose:
            print(f"iter {it}: misfit {value:.6f}  k={theta.numpy()[0]:.4f} c={theta.numpy()[1]:.4f}")
        loss.zero_()
        loss.grad.zero_()  # expect: missing_zero
    return history, obs


def objective(theta_np, obs):
    bank = OscillatorBank()
    theta = wp.array(theta_np, dtype=wp.float64)
    loss = wp.zeros(1, dtype=wp.float64)
    bank.simulate(theta, obs, loss)
    return float(loss.numpy()[0])


def verify():
    history, obs = train(np.array([5.0, 0.8]), 3)
    theta, g_used, _ = history[2]
    fd = np.zeros(2)
    for i in range(2):
        h = 1e-6
        tp, tm = theta.copy(), theta.copy()
        tp[i] += h
        tm[i] -= h
        fd[i] = (objective(tp, obs) - objective(tm, obs)) / (2 * h)
    return g_used, fd


if __name__ == "__main__":
    train(np.array([5.0, 0.8]), 8, verbose=True)
