"""Distribution matching with a differentiable (kernel-density) histogram.

A 1-D generator x = mu + exp(log_s) * (z + a z^2) maps fixed latent samples
z; its soft histogram (Gaussian kernel splatted onto bins with atomics) is
matched to a target histogram with an L2 loss.  Optimised with SGD.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_SAMPLES = 256
N_BINS = 24
LO, HI = -3.0, 3.0
BW = (HI - LO) / N_BINS


@wp.kernel
def generate(z: wp.array(dtype=float), theta: wp.array(dtype=float), x: wp.array(dtype=float)):
    i = wp.tid()
    zi = z[i]
    x[i] = theta[0] + wp.exp(theta[1]) * (zi + theta[2] * zi * zi)


@wp.kernel
def splat_hist(x: wp.array(dtype=float), hist: wp.array(dtype=float)):
    i, b = wp.tid()
    center = LO + (float(b) + 0.5) * BW
    u = (x[i] - center) / BW
    wp.atomic_add(hist, b, wp.exp(-0.5 * u * u) / float(N_SAMPLES))


@wp.kernel
def hist_l2(hist: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    b = wp.tid()
    r = hist[b] - target[b]
    wp.atomic_add(loss, 0, 100.0 * r * r)


class HistogramMatcher:
    def __init__(self, theta, z, target):
        self.theta = wp.array(np.asarray(theta, np.float32), dtype=float, requires_grad=True)
        self.z = z
        self.target = target
        self.x = wp.zeros(N_SAMPLES, dtype=float, requires_grad=True)
        self.hist = wp.zeros(N_BINS, dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.tape = wp.Tape()

    def reset(self):
        self.loss.zero_()
        self.hist.grad.zero_()  # expect: missing_zero

    def forward(self):
        wp.launch(generate, dim=N_SAMPLES, inputs=[self.z, self.theta], outputs=[self.x])
        wp.launch(splat_hist, dim=(N_SAMPLES, N_BINS), inputs=[self.x], outputs=[self.hist])
        wp.launch(hist_l2, dim=N_BINS, inputs=[self.hist, self.target], outputs=[self.loss])

    def loss_and_grad(self):
        self.reset()
        self.tape.reset()
        with self.tape:
            self.forward()
        self.tape.backward(self.loss)
        g = self.theta.grad.numpy().astype(np.float64).copy()
        self.tape.zero()
        return float(self.loss.numpy()[0]), g

    def step(self, lr):
        loss, g = self.loss_and_grad()
        self.theta.assign(self.theta.numpy() - lr * g.astype(np.float32))
        return loss


_rng = np.random.default_rng(5)
Z = wp.array(_rng.normal(size=N_SAMPLES).astype(np.float32), dtype=float)


def _target_hist():
    zt = np.random.default_rng(9).normal(size=4096)
    xt = 0.4 + 0.7 * (zt + 0.15 * zt * zt)
    centers = LO + (np.arange(N_BINS) + 0.5) * BW
    h = np.exp(-0.5 * ((xt[:, None] - centers[None, :]) / BW) ** 2).sum(0) / xt.size
    return wp.array(h.astype(np.float32), dtype=float)


TARGET = _target_hist()
PARAMS0 = np.array([0.0, np.log(1.0), 0.0])
LR = 0.004


def verify():
    """AD: gradient used at the second optimisation step; FD: central differences
    of the histogram loss (a fresh matcher per evaluation) at that step's theta."""
    m = HistogramMatcher(PARAMS0, Z, TARGET)
    m.step(LR)
    theta1 = m.theta.numpy().astype(np.float64)
    _, ad = m.loss_and_grad()
    h = 1e-3
    fd = np.zeros(3)
    for i in range(3):
        e = np.zeros(3)
        e[i] = h
        lp, _ = HistogramMatcher(theta1 + e, Z, TARGET).loss_and_grad()
        lm, _ = HistogramMatcher(theta1 - e, Z, TARGET).loss_and_grad()
        fd[i] = (lp - lm) / (2 * h)
    return ad, fd


if __name__ == "__main__":
    m = HistogramMatcher(PARAMS0, Z, TARGET)
    for it in range(40):
        loss = m.step(LR)
        if it % 10 == 0:
            print(f"iter {it:2d} loss {loss:.5f} theta {m.theta.numpy()}")
