"""Radial-basis-function network y(x) = sum_k w_k exp(-(x - c_k)^2 / 2s^2)
fitted to a damped chirp by plain gradient descent; the weights live on the
host between iterations."""
import numpy as np
import warp as wp

wp.config.quiet = True

K = 8
N = 80
SIGMA = 0.15
CENTRES = np.linspace(0.0, 1.0, K).astype(np.float32)
XS = np.linspace(0.0, 1.0, N).astype(np.float32)
YS = (np.exp(-1.5 * XS) * np.sin(9.0 * XS * XS)).astype(np.float32)
W0 = np.full(K, 0.1)
LR = 2.0
ITERS = 4


@wp.kernel
def rbf_forward(x: wp.array(dtype=float), c: wp.array(dtype=float), w: wp.array(dtype=float), s: float,
                y: wp.array(dtype=float)):
    i, k = wp.tid()
    d = (x[i] - c[k]) / s
    wp.atomic_add(y, i, w[k] * wp.exp(-0.5 * d * d))


@wp.kernel
def huber_loss(y: wp.array(dtype=float), t: wp.array(dtype=float), inv_n: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    r = y[i] - t[i]
    a = wp.abs(r)
    v = wp.where(a < 0.1, 0.5 * r * r, 0.1 * (a - 0.05))
    wp.atomic_add(loss, 0, inv_n * v)


class RBFNet:
    def __init__(self, w0):
        self.w_host = np.array(w0, dtype=np.float32)
        self.w = wp.array(self.w_host, dtype=float, requires_grad=True)
        self.c = wp.array(CENTRES, dtype=float)
        self.x = wp.array(XS, dtype=float)
        self.t = wp.array(YS, dtype=float)

    def loss(self):
        y = wp.zeros(N, dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        wp.launch(rbf_forward, dim=(N, K), inputs=[self.x, self.c, self.w, SIGMA], outputs=[y])
        wp.launch(huber_loss, dim=N, inputs=[y, self.t, 1.0 / N], outputs=[loss])
        return loss


def objective(w):
    net = RBFNet(w)
    return float(net.loss().numpy()[0])


def train(iters, log=False):
    net = RBFNet(W0)
    tape = wp.Tape()
    for it in range(iters):
        with tape:
            loss = net.loss()
        tape.backward(loss)
        at = net.w_host.astype(np.float64)
        g = net.w.grad.numpy()  # expect: grad_read
        tape.reset()
        net.w_host -= LR * g
        net.w.assign(net.w_host)
        if log:
            print(f"iter {it} huber {loss.numpy()[0]:.5f}")
    return at, np.array(g, dtype=np.float64)


def verify():
    at, ad = train(ITERS)
    h = 1.0e-3
    fd = np.array([(objective(at + h * e) - objective(at - h * e)) / (2 * h) for e in np.eye(at.size)])
    return ad, fd


if __name__ == "__main__":
    train(30, log=True)
