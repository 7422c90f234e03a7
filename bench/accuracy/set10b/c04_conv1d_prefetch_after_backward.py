# correct: the data loader overwrites the device batch buffers for the next step, but only after tape.backward() has consumed them
"""1-D convolutional denoiser for noisy sine sequences.

conv (width 5) -> tanh -> conv (width 5); trained on mini-batches streamed
through fixed device buffers.  The next batch is uploaded right after the
backward pass so the host copy overlaps the optimizer step.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

L = 32
BATCH = 6
KW = 5
CH = 3


@wp.kernel
def conv_in(x: wp.array2d(dtype=float), k1: wp.array2d(dtype=float), b1: wp.array(dtype=float), h: wp.array3d(dtype=float)):
    n, c, t = wp.tid()
    acc = b1[c]
    for j in range(KW):
        tt = t + j - KW // 2
        if tt >= 0 and tt < L:
            acc += k1[c, j] * x[n, tt]
    h[n, c, t] = wp.tanh(acc)


@wp.kernel
def conv_out_loss(h: wp.array3d(dtype=float), k2: wp.array2d(dtype=float), clean: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    n, t = wp.tid()
    acc = float(0.0)
    for c in range(CH):
        for j in range(KW):
            tt = t + j - KW // 2
            if tt >= 0 and tt < L:
                acc += k2[c, j] * h[n, c, tt]
    r = acc - clean[n, t]
    wp.atomic_add(loss, 0, r * r / float(BATCH * L))


class SequenceLoader:
    def __init__(self):
        self.noisy = wp.zeros((BATCH, L), dtype=float)
        self.clean = wp.zeros((BATCH, L), dtype=float)

    def load(self, k):
        rng = np.random.default_rng(100 + k)
        t = np.linspace(0, 2 * np.pi, L)
        ph = rng.uniform(0, 2 * np.pi, (BATCH, 1))
        fr = rng.uniform(1, 3, (BATCH, 1))
        clean = np.sin(fr * t + ph)
        self.clean.assign(clean.astype(np.float32))
        self.noisy.assign((clean + rng.normal(0, 0.3, clean.shape)).astype(np.float32))


class Denoiser:
    def __init__(self, p):
        p = np.asarray(p, np.float32)
        self.k1 = wp.array(p[: CH * KW].reshape(CH, KW), dtype=float, requires_grad=True)
        self.b1 = wp.array(p[CH * KW: CH * KW + CH], dtype=float, requires_grad=True)
        self.k2 = wp.array(p[CH * KW + CH:].reshape(CH, KW), dtype=float, requires_grad=True)
        self.h = wp.zeros((BATCH, CH, L), dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    def params(self):
        return [self.k1, self.b1, self.k2]

    def train_step(self, loader, it, lr):
        self.loss.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(conv_in, dim=(BATCH, CH, L), inputs=[loader.noisy, self.k1, self.b1], outputs=[self.h])
            wp.launch(conv_out_loss, dim=(BATCH, L), inputs=[self.h, self.k2, loader.clean], outputs=[self.loss])
        tape.backward(self.loss)
        loader.load(it + 1)  # upload the next batch while we update
        g = np.concatenate([p.grad.numpy().ravel() for p in self.params()]).astype(np.float64)
        for p in self.params():
            p.assign(p.numpy() - lr * p.grad.numpy())
        tape.zero()
        return float(self.loss.numpy()[0]), g


PARAMS0 = np.random.default_rng(2).normal(0, 0.4, 2 * CH * KW + CH)


def evaluate(p):
    loader = SequenceLoader()
    loader.load(0)
    return Denoiser(p).train_step(loader, 0, lr=0.0)


if __name__ == "__main__":
    loader = SequenceLoader()
    loader.load(0)
    model = Denoiser(PARAMS0)
    for it in range(150):
        loss, _ = model.train_step(loader, it, lr=0.2)
        if it % 50 == 0:
            print(f"step {it:3d} mse {loss:.4f}")
