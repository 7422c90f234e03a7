"""Correct: each episode starts from a reset state (an untaped assign), differentiated on its own tape.

The state array is the same object every episode, and the previous
episode's tape wrote it; the reset replaces those values with the initial
ones, so nothing carries a gradient between episodes.
"""

import numpy as np
import warp as wp

N, STEPS = 6, 3


@wp.kernel
def step(x: wp.array(dtype=float), k: wp.array(dtype=float), x_out: wp.array(dtype=float)):
    i = wp.tid()
    x_out[i] = x[i] - 0.1 * k[0] * x[i] * x[i]


@wp.kernel
def loss_kernel(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, x[i] * x[i])


k = wp.array([0.5], dtype=float, requires_grad=True)
x0 = np.linspace(0.2, 1.0, N, dtype=np.float32)
xs = [wp.zeros(N, dtype=float, requires_grad=True) for _ in range(STEPS + 1)]
for episode in range(3):
    xs[0].assign(x0)  # reset
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for s in range(STEPS):
            wp.launch(step, dim=N, inputs=[xs[s], k], outputs=[xs[s + 1]])
        wp.launch(loss_kernel, dim=N, inputs=[xs[-1]], outputs=[loss])
    tape.backward(loss)
    k.assign(k.numpy() - 0.01 * k.grad.numpy())
    tape.zero()
    wp.copy(xs[0], xs[-1])  # a warm value for a log line, overwritten by the reset next episode
print("k", k.numpy())
