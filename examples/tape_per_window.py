"""Gradient truncation: a tape per window, state carried outside any tape.

A long rollout is split into windows to save memory.  Each window records
its own tape, calls ``backward`` on its own loss, and the gradients are
summed before the optimizer step.  The state is carried to the next window
with ``wp.copy`` outside any tape, so each window's gradient ignores how the
parameter shaped the state it started from.  Every window is right on its
own; the sum is the gradient of a different objective.  A verification run
names it (TW207, on the tape made per window); the FD harness measures it
(TW401).
"""

import numpy as np
import warp as wp

N = 8
WINDOWS = 3
STEPS = 4
DT = 0.1


@wp.kernel
def step(q: wp.array(dtype=float), damping: wp.array(dtype=float), dt: float, q_out: wp.array(dtype=float)):
    i = wp.tid()
    q_out[i] = q[i] - damping[0] * q[i] * dt + 0.1 * dt


@wp.kernel
def window_loss(q: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, q[i] * q[i])


damping = wp.array([0.8], dtype=float, requires_grad=True)  # expect: TW401
carried = wp.array(np.linspace(0.5, 1.5, N, dtype=np.float32), requires_grad=True)

for window in range(WINDOWS):
    states = [wp.clone(carried)] + [wp.zeros(N, dtype=float, requires_grad=True) for _ in range(STEPS)]
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()  # expect: TW207
    with tape:
        for s in range(STEPS):
            wp.launch(step, dim=N, inputs=[states[s], damping, DT], outputs=[states[s + 1]])
        wp.launch(window_loss, dim=N, inputs=[states[-1]], outputs=[loss])
    tape.backward(loss)  # backward: once per window, gradients accumulate in damping.grad
    wp.copy(carried, states[-1])  # the carry, outside the tape

print("summed window gradient", damping.grad.numpy()[0])
