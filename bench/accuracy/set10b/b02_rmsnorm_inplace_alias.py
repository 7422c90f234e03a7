"""Token regressor: linear projection -> RMSNorm (learned gain) -> linear head.

Trained with plain SGD on a synthetic sequence-to-value task.  Shapes are
small so it runs on the CPU in a second.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

T = 12  # tokens per batch
D_IN = 4
D = 8  # model width (static, so the row loops unroll)
C = 3  # outputs per token
EPS = 1.0e-5


@wp.kernel
def project(x: wp.array2d(dtype=float), W: wp.array2d(dtype=float), h: wp.array2d(dtype=float)):
    t, j = wp.tid()
    acc = float(0.0)
    for k in range(D_IN):
        acc += W[j, k] * x[t, k]
    h[t, j] = acc


@wp.kernel
def rms_norm(h: wp.array2d(dtype=float), gain: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    t = wp.tid()
    ms = float(0.0)
    for j in range(D):
        ms += h[t, j] * h[t, j]
    inv = 1.0 / wp.sqrt(ms / float(D) + EPS)
    for j in range(D):
        out[t, j] = h[t, j] * inv * gain[j]


@wp.kernel
def head_loss(
    h: wp.array2d(dtype=float),
    W: wp.array2d(dtype=float),
    b: wp.array(dtype=float),
    y: wp.array2d(dtype=float),
    loss: wp.array(dtype=float),
):
    t, c = wp.tid()
    acc = b[c]
    for j in range(D):
        acc += W[c, j] * h[t, j]
    r = acc - y[t, c]
    wp.atomic_add(loss, 0, 0.5 * r * r / float(T))


class TokenRegressor:
    def __init__(self, seed=3):
        rng = np.random.default_rng(seed)
        self.W_in = wp.array(rng.normal(0, 0.6, (D, D_IN)).astype(np.float32), requires_grad=True)
        self.gain = wp.array((1.0 + 0.1 * rng.normal(size=D)).astype(np.float32), requires_grad=True)
        self.W_out = wp.array(rng.normal(0, 0.4, (C, D)).astype(np.float32), requires_grad=True)
        self.b_out = wp.zeros(C, dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    @property
    def params(self):
        return [self.W_in, self.gain, self.W_out, self.b_out]

    def forward(self, x, y):
        h = wp.zeros((T, D), dtype=float, requires_grad=True)
        wp.launch(project, dim=(T, D), inputs=[x, self.W_in], outputs=[h])
        h_norm = h  # normalise in place, the pre-norm activations are not needed afterwards  # expect: overwrite
        wp.launch(rms_norm, dim=T, inputs=[h, self.gain], outputs=[h_norm])
        wp.launch(head_loss, dim=(T, C), inputs=[h_norm, self.W_out, self.b_out, y], outputs=[self.loss])

    def loss_and_grad(self, x, y):
        self.loss.zero_()
        tape = wp.Tape()
        with tape:
            self.forward(x, y)
        tape.backward(self.loss)
        g = np.concatenate([p.grad.numpy().ravel() for p in self.params])
        tape.zero()
        return float(self.loss.numpy()[0]), g.astype(np.float64)

    def set_flat(self, flat):
        off = 0
        for p in self.params:
            p.assign(flat[off:off + p.size].reshape(p.shape).astype(np.float32))
            off += p.size

    def get_flat(self):
        return np.concatenate([p.numpy().ravel() for p in self.params]).astype(np.float64)


def make_data(seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(T, D_IN)).astype(np.float32)
    y = np.stack([np.tanh(x[:, 0] - x[:, 1]), x[:, 2] * x[:, 3], np.sin(x.sum(1))], axis=1).astype(np.float32)
    return wp.array(x, dtype=float), wp.array(y, dtype=float)


_model = TokenRegressor()
_x, _y = make_data(0)
PARAMS0 = _model.get_flat()


def evaluate(p):
    _model.set_flat(np.asarray(p))
    return _model.loss_and_grad(_x, _y)


if __name__ == "__main__":
    model = TokenRegressor()
    lr = 0.1
    for it in range(80):
        x, y = make_data(it % 8)
        loss, g = model.loss_and_grad(x, y)
        model.set_flat(model.get_flat() - lr * g)
        if it % 20 == 0:
            print(f"step {it:3d} loss {loss:.4f}")
    print("done, last loss", loss)
