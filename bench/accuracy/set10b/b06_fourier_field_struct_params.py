"""Neural field with learnable Fourier features, parameters held in a wp.struct.

f(x) = w2 . tanh(W1 [sin(Bx), cos(Bx)] + b1) + b2, fitted to samples of a 2-D
image-like function.  The frequency matrix B is learned with the MLP.
"""
import numpy as np
import warp as wp

from _field_buffers import FieldBuffers

wp.config.quiet = True

N_FEAT = 6
HID = 8
N_ENC = 2 * N_FEAT  # encoding width
BATCH = 64


@wp.struct
class FieldParams:
    B: wp.array2d(dtype=float)  # (N_FEAT, 2)
    W1: wp.array2d(dtype=float)  # (HID, 2 * N_FEAT)
    b1: wp.array(dtype=float)
    w2: wp.array(dtype=float)
    b2: wp.array(dtype=float)


@wp.kernel
def encode(x: wp.array(dtype=wp.vec2), prm: FieldParams, feat: wp.array2d(dtype=float)):
    n, f = wp.tid()
    phase = prm.B[f, 0] * x[n][0] + prm.B[f, 1] * x[n][1]
    feat[n, f] = wp.sin(phase)
    feat[n, f + N_FEAT] = wp.cos(phase)


@wp.func
def hidden(prm: FieldParams, feat: wp.array2d(dtype=float), n: int, j: int):
    z = prm.b1[j]
    for k in range(N_ENC):
        z += prm.W1[j, k] * feat[n, k]
    return wp.tanh(z)


@wp.kernel
def decode(feat: wp.array2d(dtype=float), prm: FieldParams, pred: wp.array(dtype=float)):
    n = wp.tid()
    out = prm.b2[0]
    for j in range(HID):
        out += prm.w2[j] * hidden(prm, feat, n, j)
    pred[n] = out


@wp.kernel
def l2(pred: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    n = wp.tid()
    r = pred[n] - target[n]
    wp.atomic_add(loss, 0, r * r / float(BATCH))


SHAPES = [("B", (N_FEAT, 2)), ("W1", (HID, 2 * N_FEAT)), ("b1", (HID,)), ("w2", (HID,)), ("b2", (1,))]


def init_flat(seed=0):
    rng = np.random.default_rng(seed)
    parts = [rng.normal(0, 2.0, (N_FEAT, 2)), rng.normal(0, 0.4, (HID, 2 * N_FEAT)), rng.normal(0, 0.1, HID),
             rng.normal(0, 0.4, HID), np.zeros(1)]
    return np.concatenate([a.ravel() for a in parts])


def params_from_flat(flat):
    prm = FieldParams()
    off = 0
    for name, shape in SHAPES:
        n = int(np.prod(shape))
        setattr(prm, name, wp.array(np.asarray(flat[off:off + n], np.float32).reshape(shape), dtype=float, requires_grad=True))
        off += n
    return prm


def grad_flat(prm):
    return np.concatenate([getattr(prm, name).grad.numpy().ravel() for name, _ in SHAPES]).astype(np.float64)


def sample_batch(seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, (BATCH, 2)).astype(np.float32)
    y = (np.sin(3 * x[:, 0]) * np.cos(2 * x[:, 1]) + 0.5 * np.exp(-4 * (x ** 2).sum(1))).astype(np.float32)
    return wp.array(x, dtype=wp.vec2), wp.array(y, dtype=float)


class NeuralField:
    def __init__(self, flat):
        self.prm = params_from_flat(flat)
        self.buffers = FieldBuffers(N_FEAT)

    def loss_and_grad(self, x, y):
        buf = self.buffers.ensure(x.shape[0])
        tape = wp.Tape()
        with tape:
            wp.launch(encode, dim=(x.shape[0], N_FEAT), inputs=[x, self.prm], outputs=[buf.features])
            wp.launch(decode, dim=x.shape[0], inputs=[buf.features, self.prm], outputs=[buf.pred])
            wp.launch(l2, dim=x.shape[0], inputs=[buf.pred, y], outputs=[buf.loss])
        tape.backward(buf.loss)
        g = grad_flat(self.prm)
        tape.zero()
        return float(buf.loss.numpy()[0]), g


PARAMS0 = init_flat()
_x, _y = sample_batch(0)


def evaluate(p):
    return NeuralField(p).loss_and_grad(_x, _y)


if __name__ == "__main__":
    p = PARAMS0.copy()
    field = NeuralField(p)
    m = np.zeros_like(p)
    v = np.zeros_like(p)
    for it in range(1, 101):
        x, y = sample_batch(it)
        loss, g = field.loss_and_grad(x, y)
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        p -= 0.01 * (m / (1 - 0.9 ** it)) / (np.sqrt(v / (1 - 0.999 ** it)) + 1e-8)
        field = NeuralField(p)
        if it % 25 == 0:
            print(f"iter {it:3d} loss {loss:.4f}")
