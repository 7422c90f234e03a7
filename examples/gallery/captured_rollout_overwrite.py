# tapewatch-test: warp>=1.19
"""A damped-spring rollout captured as one graph with its backward (``wp.ScopedCapture``) and replayed to
fit the damping: the two state buffers are swapped every step, so the third step writes the buffer the
first step read.  Recorded inside the capture like anywhere else, the tape replays the first step's
adjoint with overwritten values.  Give each step its own state buffer."""

import numpy as np
import warp as wp

wp.config.quiet = True

STEPS = 4
N = 32


@wp.kernel
def advance(x: wp.array(dtype=float), damping: wp.array(dtype=float), x_out: wp.array(dtype=float)):
    i = wp.tid()
    x_out[i] = x[i] * (1.0 - damping[0]) + 0.01 * wp.sin(x[i])


@wp.kernel
def energy(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, x[i] * x[i])


x0 = wp.array(np.linspace(-1.0, 1.0, N).astype(np.float32), requires_grad=True)
damping = wp.array([0.1], dtype=float, requires_grad=True)
buffers = [wp.zeros(N, dtype=float, requires_grad=True) for _ in range(2)]
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
wp.load_module()
with wp.ScopedCapture() as capture:
    loss.zero_()
    tape.zero()
    with tape:
        wp.copy(buffers[0], x0)
        for step in range(STEPS):
            src, dst = buffers[step % 2], buffers[(step + 1) % 2]  # expect: TW101
            wp.launch(advance, dim=N, inputs=[src, damping], outputs=[dst])
        wp.launch(energy, dim=N, inputs=[buffers[STEPS % 2]], outputs=[loss])
    tape.backward(loss)

for it in range(3):
    wp.capture_launch(capture.graph)
    print("loss", loss.numpy()[0], "dL/ddamping", damping.grad.numpy()[0])
