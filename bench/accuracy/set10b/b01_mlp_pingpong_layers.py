"""Fit a 4-layer tanh MLP to a 2-D scalar field (regression), trained with warp.optim.Adam.

The hidden activations live in preallocated device buffers that are reused
every iteration; a fresh tape is recorded per step.
"""
import numpy as np
import warp as wp
import warp.optim

wp.config.quiet = True

D_IN = 2
HID = 8
BATCH = 64


@wp.func
def affine_row(W: wp.array2d(dtype=float), b: wp.array(dtype=float), x: wp.array2d(dtype=float), n: int, o: int):
    z = b[o]
    for k in range(W.shape[1]):
        z += W[o, k] * x[n, k]
    return z


@wp.kernel
def dense(
    x: wp.array2d(dtype=float),
    W: wp.array2d(dtype=float),
    b: wp.array(dtype=float),
    activate: int,
    y: wp.array2d(dtype=float),
):
    n, o = wp.tid()
    z = affine_row(W, b, x, n, o)
    if activate:
        z = wp.tanh(z)
    y[n, o] = z


@wp.kernel
def mse(pred: wp.array2d(dtype=float), target: wp.array(dtype=float), inv_n: float, loss: wp.array(dtype=float)):
    n = wp.tid()
    r = pred[n, 0] - target[n]
    wp.atomic_add(loss, 0, r * r * inv_n)


def target_field(x):
    return np.sin(2.0 * x[:, 0]) * np.cos(1.5 * x[:, 1]) + 0.3 * x[:, 0]


class MLP:
    def __init__(self, seed=0):
        rng = np.random.default_rng(seed)
        shapes = [(HID, D_IN), (HID, HID), (HID, HID), (1, HID)]
        self.W, self.b = [], []
        for o, i in shapes:
            self.W.append(wp.array(rng.normal(0.0, 1.0 / np.sqrt(i), (o, i)).astype(np.float32), requires_grad=True))
            self.b.append(wp.array(rng.normal(0.0, 0.1, o).astype(np.float32), requires_grad=True))
        # activation buffers, allocated once
        self.buf_a = wp.zeros((BATCH, HID), dtype=float, requires_grad=True)
        self.buf_b = wp.zeros((BATCH, HID), dtype=float, requires_grad=True)
        self.buf_c = wp.zeros((BATCH, HID), dtype=float, requires_grad=True)
        self.out = wp.zeros((BATCH, 1), dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    def params(self):
        return [p for pair in zip(self.W, self.b) for p in pair]

    def get_flat(self):
        return np.concatenate([p.numpy().ravel() for p in self.params()]).astype(np.float64)

    def set_flat(self, flat):
        off = 0
        for p in self.params():
            n = p.size
            p.assign(flat[off:off + n].reshape(p.shape).astype(np.float32))
            off += n

    def grad_flat(self):
        return np.concatenate([p.grad.numpy().ravel() for p in self.params()]).astype(np.float64)

    def forward(self, x, y):
        acts = [x, self.buf_a, self.buf_b, self.buf_a, self.out]  # expect: overwrite
        for layer in range(4):
            wp.launch(
                dense,
                dim=(BATCH, self.W[layer].shape[0]),
                inputs=[acts[layer], self.W[layer], self.b[layer], int(layer < 3)],
                outputs=[acts[layer + 1]],
            )
        wp.launch(mse, dim=BATCH, inputs=[self.out, y, 1.0 / BATCH], outputs=[self.loss])

    def loss_and_grad(self, x, y):
        self.loss.zero_()
        tape = wp.Tape()
        with tape:
            self.forward(x, y)
        tape.backward(self.loss)
        g = self.grad_flat()
        l = float(self.loss.numpy()[0])
        tape.zero()
        return l, g


def make_batch(seed):
    rng = np.random.default_rng(seed)
    xs = rng.uniform(-1.5, 1.5, (BATCH, D_IN)).astype(np.float32)
    return wp.array(xs, dtype=float), wp.array(target_field(xs).astype(np.float32), dtype=float)


_model = MLP()
_x, _y = make_batch(1)
PARAMS0 = _model.get_flat()


def evaluate(p):
    _model.set_flat(np.asarray(p))
    return _model.loss_and_grad(_x, _y)


if __name__ == "__main__":
    model = MLP()
    flat = [p.flatten() for p in model.params()]  # 1-D views for the optimizer
    opt = warp.optim.Adam(flat, lr=0.02)
    for it in range(60):
        x, y = make_batch(it)
        model.loss.zero_()
        tape = wp.Tape()
        with tape:
            model.forward(x, y)
        tape.backward(model.loss)
        opt.step([p.grad for p in flat])
        tape.zero()
        if it % 20 == 0:
            print(f"iter {it:3d}  mse {model.loss.numpy()[0]:.5f}")
    print("final mse", model.loss.numpy()[0])
