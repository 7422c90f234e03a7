"""Train a 2-8-1 tanh classifier on the two-moons data set with minibatch SGD.

The trainer keeps one device buffer per minibatch tensor and streams the next
minibatch into it while the current step finishes.
"""

import numpy as np
import warp as wp

from _layers import act_linear, act_tanh, glorot, make_dense

wp.config.quiet = True

HIDDEN = 8
BATCH = 8
N_BATCHES = 4


@wp.kernel
def bce_with_logits(z: wp.array2d(dtype=float), y: wp.array(dtype=float), inv_n: float,
                    loss: wp.array(dtype=float)):
    n = wp.tid()
    s = z[n, 0]
    sp = wp.max(s, 0.0) + wp.log(1.0 + wp.exp(-wp.abs(s)))
    wp.atomic_add(loss, 0, (sp - y[n] * s) * inv_n)


def two_moons(n, seed=0):
    rng = np.random.default_rng(seed)
    t = rng.uniform(0, np.pi, n)
    lab = rng.integers(0, 2, n)
    x = np.where(lab[:, None] == 0, np.c_[np.cos(t), np.sin(t)], np.c_[1 - np.cos(t), 0.5 - np.sin(t)])
    x += 0.1 * rng.normal(size=x.shape)
    return x.astype(np.float32), lab.astype(np.float32)


class Trainer:
    def __init__(self, p, seed=0):
        x, y = two_moons(BATCH * N_BATCHES, seed)
        self.X = x.reshape(N_BATCHES, BATCH, 2)
        self.Y = y.reshape(N_BATCHES, BATCH)
        self.l1 = make_dense(2, act_tanh)
        self.l2 = make_dense(HIDDEN, act_linear)
        n1, n2 = 2 * HIDDEN, HIDDEN
        self.W1 = wp.array(p[:n1].astype(np.float32), requires_grad=True)
        self.b1 = wp.array(p[n1:n1 + HIDDEN].astype(np.float32), requires_grad=True)
        self.W2 = wp.array(p[n1 + HIDDEN:n1 + HIDDEN + n2].astype(np.float32), requires_grad=True)
        self.b2 = wp.array(p[n1 + HIDDEN + n2:].astype(np.float32), requires_grad=True)
        self.xb = wp.zeros((BATCH, 2), dtype=float)
        self.yb = wp.zeros(BATCH, dtype=float)
        self.h = wp.zeros((BATCH, HIDDEN), dtype=float, requires_grad=True)
        self.z = wp.zeros((BATCH, 1), dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    @property
    def params(self):
        return [self.W1, self.b1, self.W2, self.b2]

    def load(self, k):
        self.xb.assign(self.X[k])
        self.yb.assign(self.Y[k])

    def step(self, k, lr=0.0):
        self.loss.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(self.l1, dim=(BATCH, HIDDEN), inputs=[self.xb, self.W1, self.b1], outputs=[self.h])
            wp.launch(self.l2, dim=(BATCH, 1), inputs=[self.h, self.W2, self.b2], outputs=[self.z])
            wp.launch(bce_with_logits, dim=BATCH, inputs=[self.z, self.yb, 1.0 / BATCH], outputs=[self.loss])
        loss = float(self.loss.numpy()[0])
        self.load((k + 1) % N_BATCHES)  # expect: untaped_write
        tape.backward(self.loss)
        g = np.concatenate([a.grad.numpy() for a in self.params]).astype(np.float64)
        for a in self.params:
            a.assign(a.numpy() - lr * a.grad.numpy())
        tape.zero()
        return loss, g


def init_params(seed=0):
    rng = np.random.default_rng(seed)
    return np.concatenate([glorot(rng, HIDDEN, 2), rng.normal(0, 0.3, HIDDEN), glorot(rng, 1, HIDDEN),
                           [0.1]]).astype(np.float64)


PARAMS0 = init_params()


def evaluate(p):
    tr = Trainer(np.asarray(p))
    tr.load(0)
    return tr.step(0)


if __name__ == "__main__":
    tr = Trainer(PARAMS0)
    tr.load(0)
    for epoch in range(15):
        tot = 0.0
        for k in range(N_BATCHES):
            loss, _ = tr.step(k, lr=0.5)
            tot += loss
        if epoch % 5 == 0:
            print(f"epoch {epoch:2d} bce {tot / N_BATCHES:.4f}")
    print("done, last bce", tot / N_BATCHES)
