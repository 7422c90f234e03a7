# tapewatch-test: warp>=1.19
# tapewatch-test: --check-launches
"""A damped-spring rollout captured as one graph with its backward (``wp.ScopedCapture``) and replayed to
fit the damping, with one state buffer per step: nothing the tape read is written again, and the graph
zeroes the gradients before each backward."""

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
states = [x0] + [wp.zeros(N, dtype=float, requires_grad=True) for _ in range(STEPS)]
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
wp.load_module()
with wp.ScopedCapture() as capture:
    loss.zero_()
    tape.zero()
    with tape:
        for step in range(STEPS):
            wp.launch(advance, dim=N, inputs=[states[step], damping], outputs=[states[step + 1]])
        wp.launch(energy, dim=N, inputs=[states[STEPS]], outputs=[loss])
    tape.backward(loss)

for it in range(3):
    wp.capture_launch(capture.graph)
    print("loss", loss.numpy()[0], "dL/ddamping", damping.grad.numpy()[0])
