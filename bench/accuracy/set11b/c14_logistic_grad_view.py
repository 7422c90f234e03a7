# correct: the host update steps with a NumPy view of the weight gradient (not a copy), but uses it before tape.reset() clears the gradient.
"""Logistic regression with quadratic features on a two-moons data set,
trained with plain gradient descent on the host."""
import numpy as np
import warp as wp

wp.config.quiet = True

N = 60
rng = np.random.default_rng(31)
t = rng.uniform(0.0, np.pi, N)
lab = (np.arange(N) % 2).astype(np.float32)
XY = np.where(lab[:, None] > 0, np.stack([1.0 - np.cos(t), 0.5 - np.sin(t)], 1), np.stack([np.cos(t), np.sin(t)], 1))
XY = (XY + 0.1 * rng.normal(size=(N, 2))).astype(np.float32)
W0 = np.array([0.1, -0.2, 0.3, 0.0, 0.1, -0.1])
LR = 1.0
ITERS = 4


@wp.kernel
def bce(xy: wp.array(dtype=wp.vec2), y: wp.array(dtype=float), w: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    a = xy[i][0]
    b = xy[i][1]
    z = w[0] + w[1] * a + w[2] * b + w[3] * a * a + w[4] * a * b + w[5] * b * b
    # log(1 + exp(z)) - y z, written stably
    sp = wp.max(z, 0.0) + wp.log(1.0 + wp.exp(-wp.abs(z)))
    wp.atomic_add(loss, 0, (sp - y[i] * z) / float(xy.shape[0]))


def objective(w):
    loss = wp.zeros(1, dtype=float)
    wp.launch(bce, dim=N, inputs=[wp.array(XY, dtype=wp.vec2), wp.array(lab, dtype=float),
                                  wp.array(w.astype(np.float32), dtype=float)], outputs=[loss])
    return float(loss.numpy()[0])


def train(iters, log=False):
    xy = wp.array(XY, dtype=wp.vec2)
    y = wp.array(lab, dtype=float)
    w_host = W0.astype(np.float32)
    w = wp.array(w_host, dtype=float, requires_grad=True)
    tape = wp.Tape()
    for it in range(iters):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        with tape:
            wp.launch(bce, dim=N, inputs=[xy, y, w], outputs=[loss])
        tape.backward(loss)
        g = w.grad.numpy()
        at = w_host.astype(np.float64)
        used = g.astype(np.float64)
        w_host = w_host - LR * g
        tape.reset()
        w.assign(w_host)
        if log and it % 25 == 0:
            print(f"iter {it} cross-entropy {loss.numpy()[0]:.4f}")
    return at, used


def verify():
    at, ad = train(ITERS)
    h = 1.0e-3
    fd = np.array([(objective(at + h * e) - objective(at - h * e)) / (2 * h) for e in np.eye(at.size)])
    return ad, fd


if __name__ == "__main__":
    train(100, log=True)
