# correct: gradients of two micro-batches are accumulated on purpose (two backward passes, parameters unchanged), then one SGD step and tape.zero()
"""Two-layer tanh MLP trained with gradient accumulation over micro-batches (warp.optim.SGD on
flattened parameter views)."""

import numpy as np
import warp as wp
import warp.optim

from _layers import Dense

D, H = 2, 4
MICRO = 2
MB = 6
rng = np.random.default_rng(17)
XS = rng.uniform(-1.0, 1.0, size=(MICRO * MB, D)).astype(np.float32)
YS = (XS[:, :1] * XS[:, 1:] + 0.3 * np.sin(3.0 * XS[:, :1])).astype(np.float32)


@wp.kernel
def mse(pred: wp.array2d(dtype=float), y: wp.array2d(dtype=float), scale: float, loss: wp.array(dtype=float)):
    n, o = wp.tid()
    d = pred[n, o] - y[n, o]
    wp.atomic_add(loss, 0, scale * d * d)


class Model:
    def __init__(self, seed=3):
        r = np.random.default_rng(seed)
        self.l1 = Dense(D, H, "tanh", r)
        self.l2 = Dense(H, 1, "linear", r)
        self.params = self.l1.parameters() + self.l2.parameters()

    def loss(self, x, y, out):
        hidden = wp.zeros((x.shape[0], H), dtype=float, requires_grad=True)
        pred = wp.zeros((x.shape[0], 1), dtype=float, requires_grad=True)
        self.l1(x, hidden)
        self.l2(hidden, pred)
        wp.launch(mse, dim=pred.shape, inputs=[pred, y, 1.0 / (MICRO * MB)], outputs=[out])

    def get(self):
        return np.concatenate([p.numpy().ravel() for p in self.params]).astype(np.float64)

    def set(self, flat):
        k = 0
        for p in self.params:
            p.assign(flat[k : k + p.size].reshape(p.shape).astype(np.float32))
            k += p.size


def batches():
    for m in range(MICRO):
        sl = slice(m * MB, (m + 1) * MB)
        yield wp.array(XS[sl], dtype=float), wp.array(YS[sl], dtype=float)


def objective(model, flat):
    model.set(flat)
    total = wp.zeros(1, dtype=float)
    for x, y in batches():
        model.loss(x, y, total)
    return float(total.numpy()[0])


def train(model, steps=30, lr=0.2, verbose=False):
    opt = warp.optim.SGD([p.flatten() for p in model.params], lr=lr, momentum=0.9)
    for it in range(steps):
        running = 0.0
        for x, y in batches():
            loss = wp.zeros(1, dtype=float, requires_grad=True)
            tape = wp.Tape()
            with tape:
                model.loss(x, y, loss)
            tape.backward(loss)
            running += float(loss.numpy()[0])
        opt.step([p.grad.flatten() for p in model.params])
        tape.zero()
        if verbose and it % 10 == 0:
            print(f"step {it:3d}  loss {running:.5f}")


def verify(steps=3, eps=1e-3):
    """Gradient the optimizer consumed at its last step vs central differences of the full objective there."""
    seen = []
    step = warp.optim.SGD.step

    def spy(self, grad):
        seen.append((np.concatenate([p.numpy().ravel() for p in self.params]), np.concatenate([g.numpy().ravel() for g in grad])))
        return step(self, grad)

    model = Model()
    warp.optim.SGD.step = spy
    try:
        train(model, steps)
    finally:
        warp.optim.SGD.step = step
    p, ad = seen[-1]
    p = p.astype(np.float64)
    probe = Model()
    fd = np.zeros_like(p)
    for k in range(p.size):
        hi, lo = p.copy(), p.copy()
        hi[k] += eps
        lo[k] -= eps
        fd[k] = (objective(probe, hi) - objective(probe, lo)) / (2 * eps)
    return ad, fd


if __name__ == "__main__":
    m = Model()
    train(m, verbose=True)
    print("final objective", round(objective(Model(), m.get()), 5))
