"""Attention logits kept with retain_grad=True for a saliency map; a monitor recomputes them on the tape
before reading them back, a second writer: both adjoints receive the logits' gradient and q, k get it
twice.  The line to change is the monitor's launch (the look-alike only reads)."""

import numpy as np
import warp as wp

T = 6
D = 4


@wp.kernel
def logits(q: wp.array2d(dtype=float), k: wp.array2d(dtype=float), s: wp.array2d(dtype=float)):
    i, j = wp.tid()
    acc = float(0.0)
    for c in range(D):
        acc += q[i, c] * k[j, c]
    s[i, j] = acc * 0.5


@wp.kernel
def pooled_loss(s: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    wp.atomic_add(loss, 0, wp.tanh(s[i, j]) * float(i - j))


class Attention:
    def __init__(self, rng):
        self.q = wp.array(rng.normal(size=(T, D)).astype(np.float32), requires_grad=True)
        self.k = wp.array(rng.normal(size=(T, D)).astype(np.float32), requires_grad=True)
        self.scores = wp.zeros((T, T), dtype=float, requires_grad=True, retain_grad=True)  # expect: TW203
        self.entropy = []

    def monitor(self, recompute=True):
        if recompute:
            wp.launch(logits, dim=(T, T), inputs=[self.q, self.k], outputs=[self.scores])
        s = self.scores.numpy()
        p = np.exp(s - s.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        self.entropy.append(float(-(p * np.log(p)).sum(1).mean()))

    def forward(self, loss):
        wp.launch(logits, dim=(T, T), inputs=[self.q, self.k], outputs=[self.scores])
        self.monitor()
        wp.launch(pooled_loss, dim=(T, T), inputs=[self.scores], outputs=[loss])


model = Attention(np.random.default_rng(2))
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    model.forward(loss)
tape.backward(loss)
print("saliency", np.abs(model.scores.grad.numpy()).max(), "d loss / d q", model.q.grad.numpy()[0])
