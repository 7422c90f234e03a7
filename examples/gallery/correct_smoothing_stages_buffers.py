"""A chain of smoothing stages over a list of buffers, one buffer per stage: each stage reads the
previous buffer and writes the next, so every stage's adjoint sees what it read."""

import numpy as np
import warp as wp

N = 16


@wp.kernel
def smooth(src: wp.array(dtype=float), gain: wp.array(dtype=float), dst: wp.array(dtype=float)):
    i = wp.tid()
    left = src[wp.max(i - 1, 0)]
    right = src[wp.min(i + 1, N - 1)]
    dst[i] = wp.tanh(gain[0] * (0.25 * left + 0.5 * src[i] + 0.25 * right))


@wp.kernel
def energy(x: wp.array(dtype=float), e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, x[i] * x[i])


class Smoother:
    def __init__(self):
        self.stage_a = wp.zeros(N, dtype=float, requires_grad=True)
        self.stage_b = wp.zeros(N, dtype=float, requires_grad=True)
        self.stage_c = wp.zeros(N, dtype=float, requires_grad=True)
        self.out = wp.zeros(N, dtype=float, requires_grad=True)

    def run(self, x, gain):
        stages = [x, self.stage_a, self.stage_b, self.stage_c, self.out]
        for s in range(len(stages) - 1):
            wp.launch(smooth, dim=N, inputs=[stages[s], gain], outputs=[stages[s + 1]])
        return self.out


x = wp.array(np.sin(np.linspace(0.0, 3.0, N)).astype(np.float32), requires_grad=True)
gain = wp.array([1.5], dtype=float, requires_grad=True)
e = wp.zeros(1, dtype=float, requires_grad=True)
smoother = Smoother()
tape = wp.Tape()
with tape:
    y = smoother.run(x, gain)
    wp.launch(energy, dim=N, inputs=[y], outputs=[e])
tape.backward(e)
print("d e / d gain", gain.grad.numpy())
