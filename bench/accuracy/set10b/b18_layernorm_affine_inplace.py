"""LayerNorm + learned affine + linear head, trained as a small regressor.

The normalisation and the affine part are separate kernels so the
normalised activations can be reused by an auxiliary reconstruction head.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

B = 16
D = 6
OUT = 2
EPS = 1e-5


@wp.kernel
def layer_norm(x: wp.array2d(dtype=float), xhat: wp.array2d(dtype=float)):
    n = wp.tid()
    mean = float(0.0)
    for j in range(D):
        mean += x[n, j]
    mean = mean / float(D)
    var = float(0.0)
    for j in range(D):
        var += (x[n, j] - mean) * (x[n, j] - mean)
    rstd = 1.0 / wp.sqrt(var / float(D) + EPS)
    for j in range(D):
        xhat[n, j] = (x[n, j] - mean) * rstd


@wp.kernel
def scale_shift(xhat: wp.array2d(dtype=float), gamma: wp.array(dtype=float), beta: wp.array(dtype=float), y: wp.array2d(dtype=float)):
    n, j = wp.tid()
    y[n, j] = xhat[n, j]
    y[n, j] *= gamma[j]  # expect: inplace_op
    y[n, j] += beta[j]


@wp.kernel
def head_loss(y: wp.array2d(dtype=float), W: wp.array2d(dtype=float), t: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    n, o = wp.tid()
    z = float(0.0)
    for j in range(D):
        z += W[o, j] * y[n, j]
    r = wp.tanh(z) - t[n, o]
    wp.atomic_add(loss, 0, r * r / float(B))


class NormHead:
    def __init__(self, flat):
        f = np.asarray(flat, np.float32)
        self.gamma = wp.array(f[:D], dtype=float, requires_grad=True)
        self.beta = wp.array(f[D:2 * D], dtype=float, requires_grad=True)
        self.W = wp.array(f[2 * D:].reshape(OUT, D), dtype=float, requires_grad=True)

    def params(self):
        return [self.gamma, self.beta, self.W]

    def loss_and_grad(self, x, t):
        xhat = wp.zeros((B, D), dtype=float, requires_grad=True)
        y = wp.zeros((B, D), dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(layer_norm, dim=B, inputs=[x], outputs=[xhat])
            wp.launch(scale_shift, dim=(B, D), inputs=[xhat, self.gamma, self.beta], outputs=[y])
            wp.launch(head_loss, dim=(B, OUT), inputs=[y, self.W, t], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), np.concatenate([p.grad.numpy().ravel() for p in self.params()]).astype(np.float64)


def data(seed=0):
    rng = np.random.default_rng(seed)
    x = (rng.normal(size=(B, D)) * np.linspace(0.5, 3.0, D) + 1.0).astype(np.float32)
    t = np.stack([np.tanh(x[:, 0] - x[:, 3]), np.tanh(0.3 * x[:, 5])], 1).astype(np.float32)
    return wp.array(x, dtype=float, requires_grad=True), wp.array(t, dtype=float)


X, TGT = data()
PARAMS0 = np.concatenate([np.linspace(0.6, 1.4, D), np.linspace(-0.2, 0.2, D), np.random.default_rng(3).normal(0, 0.4, OUT * D)])


def evaluate(p):
    return NormHead(p).loss_and_grad(X, TGT)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(80):
        loss, g = evaluate(p)
        p -= 0.2 * g
        if it % 20 == 0:
            print(f"iter {it:2d} loss {loss:.4f} gamma {np.round(p[:D], 2)}")
