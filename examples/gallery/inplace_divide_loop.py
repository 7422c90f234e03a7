"""Normalising weights in place, once per iteration of a taped loop, inside a method."""

import numpy as np
import warp as wp

N = 4


@wp.kernel
def normalize(w: wp.array(dtype=float), total: wp.array(dtype=float)):
    i = wp.tid()
    w[i] /= total[0]  # expect: TW104


@wp.kernel
def sum_of(w: wp.array(dtype=float), total: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(total, 0, w[i])


@wp.kernel
def score(w: wp.array(dtype=float), target: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    d = w[i] - target[i]
    wp.atomic_add(out, 0, d * d)


class Mixture:
    def __init__(self):
        self.w = wp.array(np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float32), requires_grad=True)

    def renormalize(self):
        total = wp.zeros(1, dtype=float, requires_grad=True)
        wp.launch(sum_of, dim=N, inputs=[self.w], outputs=[total])
        wp.launch(normalize, dim=N, inputs=[self.w, total])  # expect: TW101


mix = Mixture()
target = wp.full(N, 0.25, dtype=float)
out = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    for _ in range(2):
        mix.renormalize()
    wp.launch(score, dim=N, inputs=[mix.w, target], outputs=[out])
tape.backward(out)
print("d out / d w", mix.w.grad.numpy())
