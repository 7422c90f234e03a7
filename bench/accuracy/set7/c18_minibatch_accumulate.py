# correct: Linear-Gaussian policy regression with gradient accumulation over mini-batches, warp.optim.SGD every ACCUM batches.
"""Linear-Gaussian policy regression with gradient accumulation over mini-batches, warp.optim.SGD every ACCUM batches."""
import numpy as np
import warp as wp
from warp.optim import SGD

D = 3
BATCH = 16
ACCUM = 4
rng = np.random.default_rng(21)
X = rng.normal(size=(ACCUM * BATCH * 3, D)).astype(np.float32)
Y = (np.tanh(X @ np.array([0.8, -0.5, 0.3])) + 0.05 * rng.normal(size=len(X))).astype(np.float32)


@wp.kernel
def batch_loss(x: wp.array2d(dtype=float), y: wp.array(dtype=float), w: wp.array(dtype=float),
               scale: float, loss: wp.array(dtype=float)):
    n = wp.tid()
    a = float(0.0)
    for k in range(D):
        a += w[k] * x[n, k]
    r = wp.tanh(a) - y[n]
    wp.atomic_add(loss, 0, scale * r * r)


def train(w0, epochs=1, record=None):
    w = wp.array(w0, dtype=float, requires_grad=True)
    opt = SGD([w], lr=0.5)
    n_batches = len(X) // BATCH
    for ep in range(epochs):
        for b in range(n_batches):
            xb = wp.array(X[b * BATCH:(b + 1) * BATCH])
            yb = wp.array(Y[b * BATCH:(b + 1) * BATCH])
            loss = wp.zeros(1, dtype=float, requires_grad=True)
            tape = wp.Tape()
            with tape:
                wp.launch(batch_loss, dim=BATCH, inputs=[xb, yb, w, 1.0 / (BATCH * ACCUM)], outputs=[loss])
            tape.backward(loss)  # w.grad accumulates over the ACCUM batches of this group
            if b % ACCUM == ACCUM - 1:
                if record is not None:
                    record.append((w.numpy().copy(), w.grad.numpy().copy(), b))
                opt.step([w.grad])
                w.grad.zero_()
    return w.numpy()


def group_loss(wn, last_b):
    total = 0.0
    for b in range(last_b - ACCUM + 1, last_b + 1):
        a = np.tanh(X[b * BATCH:(b + 1) * BATCH] @ wn.astype(np.float64))
        total += np.sum((a - Y[b * BATCH:(b + 1) * BATCH]) ** 2) / (BATCH * ACCUM)
    return total


def verify():
    rec = []
    train(np.zeros(D, np.float32), record=rec)
    ad, fd = [], []
    for wn, g, b in rec:
        ad += list(g)
        fd += [(group_loss(wn + 1e-4 * e, b) - group_loss(wn - 1e-4 * e, b)) / 2e-4 for e in np.eye(D)]
    return np.array(ad), np.array(fd)


if __name__ == "__main__":
    print("w", train(np.zeros(D, np.float32), epochs=3))
