# tapewatch-test: warp>=1.19
"""Learning a drone's hover gains with the whole training step captured as one graph: forward, backward, the
SGD update and the zeroing after it, replayed with ``wp.capture_launch``.  The graph zeroes the gains'
gradient after the update: each replay's backward starts from zero."""

import numpy as np
import warp as wp

wp.config.quiet = True

N = 16


@wp.kernel
def hover_error(gain: wp.array(dtype=float), mass: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = gain[0] * mass[i] + gain[1] - 9.81 * mass[i]
    wp.atomic_add(loss, 0, d * d / float(N))


@wp.kernel
def sgd(param: wp.array(dtype=float), grad: wp.array(dtype=float), lr: float):
    i = wp.tid()
    param[i] = param[i] - lr * grad[i]


mass = wp.array(np.linspace(0.8, 1.6, N).astype(np.float32))
gain = wp.array([8.0, 0.5], dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
wp.load_module()
with wp.ScopedCapture() as capture:
    loss.zero_()
    with tape:
        wp.launch(hover_error, dim=N, inputs=[gain, mass], outputs=[loss])
    tape.backward(loss)
    wp.launch(sgd, dim=2, inputs=[gain, gain.grad, 0.05])
    gain.grad.zero_()
for it in range(6):
    wp.capture_launch(capture.graph)
print("loss", loss.numpy()[0], "gain", gain.numpy())
