# correct: batch statistics are taken through .numpy() while the tape records, but only for the log line; the normalisation the tape differentiates uses a taped mean kernel
"""Learned-embedding logistic classifier with batch centring.

e = tanh(W x) (3 -> 4); ec = e - mean_batch(e); p = sigmoid(v . ec + c).
"""
import numpy as np
import warp as wp

wp.config.quiet = True

B = 48
D_IN = 3
H = 4


@wp.kernel
def embed(x: wp.array2d(dtype=float), W: wp.array2d(dtype=float), e: wp.array2d(dtype=float)):
    n, j = wp.tid()
    z = float(0.0)
    for k in range(D_IN):
        z += W[j, k] * x[n, k]
    e[n, j] = wp.tanh(z)


@wp.kernel
def batch_mean(e: wp.array2d(dtype=float), mu: wp.array(dtype=float)):
    n, j = wp.tid()
    wp.atomic_add(mu, j, e[n, j] / float(B))


@wp.kernel
def bce(e: wp.array2d(dtype=float), mu: wp.array(dtype=float), v: wp.array(dtype=float), c: wp.array(dtype=float), y: wp.array(dtype=float),
        loss: wp.array(dtype=float)):
    n = wp.tid()
    z = c[0]
    for j in range(H):
        z += v[j] * (e[n, j] - mu[j])
    # -[y log s + (1-y) log(1-s)] = softplus(z) - y z, stable form
    sp = wp.max(z, 0.0) + wp.log(1.0 + wp.exp(-wp.abs(z)))
    wp.atomic_add(loss, 0, (sp - y[n] * z) / float(B))


def data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(B, D_IN)).astype(np.float32)
    y = (x[:, 0] * x[:, 1] + 0.5 * x[:, 2] > 0).astype(np.float32)
    return wp.array(x, dtype=float), wp.array(y, dtype=float)


X, Y = data()
PARAMS0 = np.random.default_rng(1).normal(0, 0.7, H * D_IN + H + 1)
FD_EPS = 3e-3
LOG = []


def evaluate(p):
    p = np.asarray(p, np.float32)
    W = wp.array(p[: H * D_IN].reshape(H, D_IN), dtype=float, requires_grad=True)
    v = wp.array(p[H * D_IN: H * D_IN + H], dtype=float, requires_grad=True)
    c = wp.array(p[-1:], dtype=float, requires_grad=True)
    e = wp.zeros((B, H), dtype=float, requires_grad=True)
    mu = wp.zeros(H, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(embed, dim=(B, H), inputs=[X, W], outputs=[e])
        LOG.append(float(np.abs(e.numpy().mean(axis=0)).max()))  # how far from centred the raw embedding is
        wp.launch(batch_mean, dim=(B, H), inputs=[e], outputs=[mu])
        wp.launch(bce, dim=B, inputs=[e, mu, v, c, Y], outputs=[loss])
    tape.backward(loss)
    g = np.concatenate([W.grad.numpy().ravel(), v.grad.numpy(), c.grad.numpy()]).astype(np.float64)
    return float(loss.numpy()[0]), g


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(200):
        loss, g = evaluate(p)
        p -= 0.5 * g
        if it % 50 == 0:
            print(f"iter {it:3d} bce {loss:.4f} |mean embedding| {LOG[-1]:.3f}")
