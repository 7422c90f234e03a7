"""Fitting a sensor array's gain model with a robust (Cauchy) loss: the program reports
``np.mean(np.log1p((r / C) ** 2))`` of the residuals and seeds the backward pass with its derivative,
``2 r / (C**2 + r**2) / N``, computed from the same host copy: quiet."""

import numpy as np
import warp as wp

wp.config.quiet = True

N = 16
C = 0.5
LEVEL = np.linspace(0.1, 1.6, N).astype(np.float32)
READING = (1.3 * LEVEL + 0.2 + 0.05 * np.sin(7.0 * LEVEL)).astype(np.float32)
READING[5] += 2.0  # an outlier
LEVEL_W = wp.array(LEVEL, dtype=float)
READING_W = wp.array(READING, dtype=float)


@wp.kernel
def residual(gain: wp.array(dtype=float), level: wp.array(dtype=float), reading: wp.array(dtype=float),
             r: wp.array(dtype=float)):
    i = wp.tid()
    r[i] = gain[0] * level[i] + gain[1] - reading[i]


def robust_step(gain, lr):
    r = wp.zeros(N, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(residual, dim=N, inputs=[gain, LEVEL_W, READING_W], outputs=[r])
    scaled = r.numpy() / C
    loss = float(np.mean(np.log1p(scaled * scaled)))
    r.grad.assign(wp.array(2.0 * scaled / C / (1.0 + scaled * scaled) / N, dtype=float))
    tape.backward()
    gain.assign(gain.numpy() - lr * gain.grad.numpy())
    tape.zero()
    return loss


gain = wp.array([1.0, 0.0], dtype=float, requires_grad=True)
for it in range(3):
    print("robust loss", robust_step(gain, 0.1))
