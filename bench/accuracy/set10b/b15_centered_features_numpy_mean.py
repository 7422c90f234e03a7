"""Regression with a learned feature layer followed by batch centering.

h = softplus(W x + b), hc = h - mean_batch(h), y = w . hc + c.  The batch
mean makes the head invariant to a constant shift of the features.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

D_IN = 3
H = 5
BATCH = 40


@wp.kernel
def features(x: wp.array2d(dtype=float), W: wp.array2d(dtype=float), b: wp.array(dtype=float), h: wp.array2d(dtype=float)):
    n, j = wp.tid()
    z = b[j]
    for k in range(D_IN):
        z += W[j, k] * x[n, k]
    h[n, j] = wp.log(1.0 + wp.exp(z))


@wp.kernel
def column_mean(h: wp.array2d(dtype=float), mu: wp.array(dtype=float)):
    n, j = wp.tid()
    wp.atomic_add(mu, j, h[n, j] / float(h.shape[0]))


@wp.kernel
def head_mse(h: wp.array2d(dtype=float), mu: wp.array(dtype=float), w: wp.array(dtype=float), c: wp.array(dtype=float),
             y: wp.array(dtype=float), loss: wp.array(dtype=float)):
    n = wp.tid()
    pred = c[0]
    for j in range(H):
        pred += w[j] * (h[n, j] - mu[j])
    r = pred - y[n]
    wp.atomic_add(loss, 0, r * r / float(BATCH))


class CenteredRegressor:
    def __init__(self, flat):
        f = np.asarray(flat, np.float32)
        self.W = wp.array(f[: H * D_IN].reshape(H, D_IN), dtype=float, requires_grad=True)
        self.b = wp.array(f[H * D_IN: H * D_IN + H], dtype=float, requires_grad=True)
        self.w = wp.array(f[H * D_IN + H: H * D_IN + 2 * H], dtype=float, requires_grad=True)
        self.c = wp.array(f[-1:], dtype=float, requires_grad=True)

    def params(self):
        return [self.W, self.b, self.w, self.c]

    def feature_mean(self, h):
        mu = wp.zeros(H, dtype=float, requires_grad=True)
        wp.launch(column_mean, dim=h.shape, inputs=[h], outputs=[mu])
        return mu

    def predict_loss(self, x, y, loss):
        h = wp.zeros((x.shape[0], H), dtype=float, requires_grad=True)
        wp.launch(features, dim=(x.shape[0], H), inputs=[x, self.W, self.b], outputs=[h])
        mu = wp.array(h.numpy().mean(axis=0), dtype=float, requires_grad=True)  # expect: truncation
        wp.launch(head_mse, dim=x.shape[0], inputs=[h, mu, self.w, self.c, y], outputs=[loss])

    def loss_and_grad(self, x, y):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            self.predict_loss(x, y, loss)
        tape.backward(loss)
        g = np.concatenate([p.grad.numpy().ravel() for p in self.params()]).astype(np.float64)
        return float(loss.numpy()[0]), g


def dataset(seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(BATCH, D_IN)).astype(np.float32)
    y = (np.tanh(x[:, 0] + 0.5 * x[:, 1]) + 0.3 * x[:, 2] ** 2).astype(np.float32)
    return wp.array(x, dtype=float), wp.array(y, dtype=float)


PARAMS0 = np.random.default_rng(0).normal(0, 0.5, H * D_IN + 2 * H + 1)
PARAMS0[-1] = -0.5  # head bias starts below the target mean
_x, _y = dataset(0)


def evaluate(p):
    return CenteredRegressor(p).loss_and_grad(_x, _y)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(100):
        loss, g = CenteredRegressor(p).loss_and_grad(*dataset(it % 5))
        p -= 0.1 * g
        if it % 25 == 0:
            print(f"iter {it:3d} mse {loss:.4f}")
    model = CenteredRegressor(p)
    x, _ = dataset(99)
    h = wp.zeros((BATCH, H), dtype=float)
    wp.launch(features, dim=(BATCH, H), inputs=[x, model.W, model.b], outputs=[h])
    print("feature means on held-out batch:", np.round(model.feature_mean(h).numpy(), 3))
