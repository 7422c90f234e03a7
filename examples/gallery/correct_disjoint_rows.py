"""Correct: a trajectory stored as rows of one 2D array; each step reads row t and writes row t+1.

The row views are different objects over disjoint memory: nothing the tape
read is overwritten.
"""

import numpy as np
import warp as wp

N, STEPS = 8, 5


@wp.kernel
def advance(x: wp.array(dtype=float), x_out: wp.array(dtype=float)):
    i = wp.tid()
    x_out[i] = x[i] + 0.1 * wp.sin(x[i])


@wp.kernel
def loss_kernel(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, x[i] * x[i])


traj = wp.zeros((STEPS + 1, N), dtype=float, requires_grad=True)
traj.assign(np.tile(np.linspace(0, 1, N, dtype=np.float32), (STEPS + 1, 1)))
evens, odds = traj[::2], traj[1::2]  # interleaved views: no element in common
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    for t in range(STEPS):
        wp.launch(advance, dim=N, inputs=[traj[t]], outputs=[traj[t + 1]])
    wp.launch(loss_kernel, dim=N, inputs=[traj[STEPS]], outputs=[loss])
tape.backward(loss)
print("d loss / d x0", traj.grad.numpy()[0], evens.shape, odds.shape)
