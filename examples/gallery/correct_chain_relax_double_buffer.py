"""Correct: the spring-chain relaxation reads the positions of the last sweep and scatters its corrections,
with atomics, into the next sweep's array (which starts as a copy), never into the array it read."""

import numpy as np
import warp as wp

N = 6


@wp.kernel
def carry(x: wp.array(dtype=float), x_next: wp.array(dtype=float)):
    i = wp.tid()
    x_next[i] = x[i]


@wp.kernel
def relax(x: wp.array(dtype=float), rest: float, stiffness: float, x_next: wp.array(dtype=float)):
    s = wp.tid()
    stretch = x[s + 1] - x[s] - rest
    push = stiffness * wp.tanh(stretch)
    wp.atomic_add(x_next, s, 0.5 * push)
    wp.atomic_sub(x_next, s + 1, 0.5 * push)


@wp.kernel
def length_error(x: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
    d = x[N - 1] - x[0] - target
    loss[0] = d * d


def settle(x, sweeps, rest, stiffness, tape):
    with tape:
        for _ in range(sweeps):
            x_next = wp.zeros_like(x)
            wp.launch(carry, dim=N, inputs=[x], outputs=[x_next])
            wp.launch(relax, dim=N - 1, inputs=[x, rest, stiffness], outputs=[x_next])
            x = x_next
    return x


x0 = wp.array(np.linspace(0.0, 7.0, N).astype(np.float32), requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
x = settle(x0, 3, 1.0, 0.4, tape)
with tape:
    wp.launch(length_error, dim=1, inputs=[x, 4.0], outputs=[loss])
tape.backward(loss)
print("loss", loss.numpy()[0], "dL/dx0", x0.grad.numpy())
