# correct: activation buffers allocated once and reused every training step, but each layer writes its own buffer and each step records a fresh tape
"""Residual tanh MLP regressor trained with warp.optim.Adam.

h1 = tanh(W1 x + b1); h2 = h1 + tanh(W2 h1 + b2); y = w3 . h2 + b3.
All activation buffers are allocated once in __init__ and reused for every
mini-batch.
"""
import numpy as np
import warp as wp
import warp.optim

wp.config.quiet = True

D_IN = 3
HID = 8
BATCH = 32


@wp.func
def pre_activation(x: wp.array2d(dtype=float), W: wp.array2d(dtype=float), b: wp.array(dtype=float), n: int, j: int, width: int):
    z = b[j]
    for k in range(width):
        z += W[j, k] * x[n, k]
    return z


@wp.kernel
def input_layer(x: wp.array2d(dtype=float), W1: wp.array2d(dtype=float), b1: wp.array(dtype=float), h1: wp.array2d(dtype=float)):
    n, j = wp.tid()
    h1[n, j] = wp.tanh(pre_activation(x, W1, b1, n, j, D_IN))


@wp.kernel
def residual_layer(h1: wp.array2d(dtype=float), W2: wp.array2d(dtype=float), b2: wp.array(dtype=float), h2: wp.array2d(dtype=float)):
    n, j = wp.tid()
    h2[n, j] = h1[n, j] + wp.tanh(pre_activation(h1, W2, b2, n, j, HID))


@wp.kernel
def readout_mse(h2: wp.array2d(dtype=float), w3: wp.array(dtype=float), b3: wp.array(dtype=float), y: wp.array(dtype=float),
                loss: wp.array(dtype=float)):
    n = wp.tid()
    out = b3[0]
    for j in range(HID):
        out += w3[j] * h2[n, j]
    r = out - y[n]
    wp.atomic_add(loss, 0, r * r / float(BATCH))


class ResMLP:
    def __init__(self, flat):
        f = np.asarray(flat, np.float32)
        sizes = [("W1", (HID, D_IN)), ("b1", (HID,)), ("W2", (HID, HID)), ("b2", (HID,)), ("w3", (HID,)), ("b3", (1,))]
        off = 0
        self.names = []
        for name, shape in sizes:
            n = int(np.prod(shape))
            setattr(self, name, wp.array(f[off:off + n].reshape(shape), dtype=float, requires_grad=True))
            self.names.append(name)
            off += n
        self.h1 = wp.zeros((BATCH, HID), dtype=float, requires_grad=True)
        self.h2 = wp.zeros((BATCH, HID), dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    def params(self):
        return [getattr(self, n) for n in self.names]

    def forward(self, x, y):
        wp.launch(input_layer, dim=(BATCH, HID), inputs=[x, self.W1, self.b1], outputs=[self.h1])
        wp.launch(residual_layer, dim=(BATCH, HID), inputs=[self.h1, self.W2, self.b2], outputs=[self.h2])
        wp.launch(readout_mse, dim=BATCH, inputs=[self.h2, self.w3, self.b3, y], outputs=[self.loss])

    def loss_and_grad(self, x, y):
        self.loss.zero_()
        tape = wp.Tape()
        with tape:
            self.forward(x, y)
        tape.backward(self.loss)
        g = np.concatenate([p.grad.numpy().ravel() for p in self.params()]).astype(np.float64)
        tape.zero()
        return float(self.loss.numpy()[0]), g


def batch(seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, (BATCH, D_IN)).astype(np.float32)
    y = (np.sin(2 * x[:, 0]) + x[:, 1] * x[:, 2]).astype(np.float32)
    return wp.array(x, dtype=float), wp.array(y, dtype=float)


PARAMS0 = np.random.default_rng(0).normal(0, 0.5, HID * D_IN + HID + HID * HID + HID + HID + 1)
_model = ResMLP(PARAMS0)
_x, _y = batch(0)


def evaluate(p):
    off = 0
    for a in _model.params():
        a.assign(np.asarray(p[off:off + a.size], np.float32).reshape(a.shape))
        off += a.size
    # run a second batch through the same buffers first, as training would
    _model.loss_and_grad(*batch(1))
    return _model.loss_and_grad(_x, _y)


if __name__ == "__main__":
    model = ResMLP(PARAMS0)
    flat = [p.flatten() for p in model.params()]
    opt = warp.optim.Adam(flat, lr=0.01)
    for it in range(100):
        model.loss.zero_()
        tape = wp.Tape()
        with tape:
            model.forward(*batch(it % 10))
        tape.backward(model.loss)
        opt.step([p.grad for p in flat])
        tape.zero()
        if it % 25 == 0:
            print(f"step {it:3d} mse {model.loss.numpy()[0]:.4f}")
