"""Two-layer MLP classifier on a 3-arm spiral, softmax cross-entropy.

A small DataLoader keeps the current mini-batch in device buffers; the
trainer overlaps host work with the backward pass by loading the next batch
early.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

D_IN = 2
HID = 8
N_CLS = 3
BATCH = 48


@wp.func
def hidden_unit(x: wp.array2d(dtype=float), W1: wp.array2d(dtype=float), b1: wp.array(dtype=float), n: int, j: int):
    z = b1[j]
    for k in range(D_IN):
        z += W1[j, k] * x[n, k]
    return wp.tanh(z)


@wp.kernel
def layer1(x: wp.array2d(dtype=float), W1: wp.array2d(dtype=float), b1: wp.array(dtype=float), h: wp.array2d(dtype=float)):
    n, j = wp.tid()
    h[n, j] = hidden_unit(x, W1, b1, n, j)


@wp.kernel
def logits_kernel(h: wp.array2d(dtype=float), W2: wp.array2d(dtype=float), b2: wp.array(dtype=float), z: wp.array2d(dtype=float)):
    n, c = wp.tid()
    acc = b2[c]
    for j in range(HID):
        acc += W2[c, j] * h[n, j]
    z[n, c] = acc


@wp.kernel
def cross_entropy(z: wp.array2d(dtype=float), label: wp.array(dtype=int), loss: wp.array(dtype=float)):
    n = wp.tid()
    m = wp.max(wp.max(z[n, 0], z[n, 1]), z[n, 2])
    s = wp.exp(z[n, 0] - m) + wp.exp(z[n, 1] - m) + wp.exp(z[n, 2] - m)
    lse = m + wp.log(s)
    wp.atomic_add(loss, 0, (lse - z[n, label[n]]) / float(BATCH))


def spiral(n, seed):
    rng = np.random.default_rng(seed)
    cls = rng.integers(0, N_CLS, n)
    r = rng.uniform(0.1, 1.0, n)
    th = 4.0 * r + cls * 2.0 * np.pi / N_CLS + rng.normal(0, 0.15, n)
    x = np.stack([r * np.cos(th), r * np.sin(th)], 1).astype(np.float32)
    return x, cls.astype(np.int32)


class DataLoader:
    def __init__(self, n_batches=16):
        self.batches = [spiral(BATCH, s) for s in range(n_batches)]
        self.x = wp.zeros((BATCH, D_IN), dtype=float)
        self.y = wp.zeros(BATCH, dtype=int)

    def load(self, k):
        bx, by = self.batches[k % len(self.batches)]
        self.x.assign(bx)
        self.y.assign(by)


class Classifier:
    def __init__(self, seed=0):
        rng = np.random.default_rng(seed)
        self.W1 = wp.array(rng.normal(0, 1.0, (HID, D_IN)).astype(np.float32), requires_grad=True)
        self.b1 = wp.array(rng.normal(0, 0.1, HID).astype(np.float32), requires_grad=True)
        self.W2 = wp.array(rng.normal(0, 0.5, (N_CLS, HID)).astype(np.float32), requires_grad=True)
        self.b2 = wp.zeros(N_CLS, dtype=float, requires_grad=True)
        self.h = wp.zeros((BATCH, HID), dtype=float, requires_grad=True)
        self.z = wp.zeros((BATCH, N_CLS), dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    @property
    def params(self):
        return [self.W1, self.b1, self.W2, self.b2]

    def forward(self, x, y):
        wp.launch(layer1, dim=(BATCH, HID), inputs=[x, self.W1, self.b1], outputs=[self.h])
        wp.launch(logits_kernel, dim=(BATCH, N_CLS), inputs=[self.h, self.W2, self.b2], outputs=[self.z])
        wp.launch(cross_entropy, dim=BATCH, inputs=[self.z, y], outputs=[self.loss])


class Trainer:
    def __init__(self, model, loader, lr=0.5):
        self.model, self.loader, self.lr = model, loader, lr

    def compute_gradients(self, it):
        """Forward on batch `it`, backward; returns (loss, flat gradient)."""
        m, ld = self.model, self.loader
        ld.load(it)
        m.loss.zero_()
        tape = wp.Tape()
        with tape:
            m.forward(ld.x, ld.y)
        loss = float(m.loss.numpy()[0])
        ld.load(it + 1)  # prefetch the next batch early  # expect: untaped_write
        tape.backward(m.loss)
        g = np.concatenate([p.grad.numpy().ravel() for p in m.params]).astype(np.float64)
        tape.zero()
        return loss, g

    def step(self, it):
        loss, g = self.compute_gradients(it)
        off = 0
        for p in self.model.params:
            p.assign(p.numpy() - self.lr * g[off:off + p.size].reshape(p.shape).astype(np.float32))
            off += p.size
        return loss


_model = Classifier()
_trainer = Trainer(_model, DataLoader())
PARAMS0 = np.concatenate([p.numpy().ravel() for p in _model.params]).astype(np.float64)
FD_EPS = 1e-2


def evaluate(p):
    off = 0
    for a in _model.params:
        a.assign(np.asarray(p[off:off + a.size], dtype=np.float32).reshape(a.shape))
        off += a.size
    return _trainer.compute_gradients(0)


if __name__ == "__main__":
    trainer = Trainer(Classifier(), DataLoader())
    for it in range(100):
        loss = trainer.step(it)
        if it % 25 == 0:
            print(f"step {it:3d} xent {loss:.4f}")
    print("final xent", loss)
