"""A reaction-diffusion profile kept in two rows of one 2-D array: each step reads row `src` and writes
row `dst`, with `dst = 1 - src`, so step s + 1 writes the row step s - 1 read and that step's adjoint
replays with overwritten values.  The line to change is the slot pick (the look-alike keeps one row
per step, `dst = src + 1`, and is quiet: each launch reads and writes different rows)."""

import numpy as np
import warp as wp

N = 32
STEPS = 6


@wp.kernel
def react(U: wp.array2d(dtype=float), src: int, dst: int, rate: wp.array(dtype=float)):
    i = wp.tid()
    u = U[src, i]
    left = U[src, wp.max(i - 1, 0)]
    right = U[src, wp.min(i + 1, N - 1)]
    U[dst, i] = u + 0.1 * (left - 2.0 * u + right) + 0.05 * rate[0] * u * (1.0 - u)  # note: TW104


@wp.kernel
def total(U: wp.array2d(dtype=float), row: int, loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, U[row, i] * U[row, i])


rate = wp.array([0.8], dtype=float, requires_grad=True)
start = np.exp(-((np.arange(N) - 10.0) / 4.0) ** 2).astype(np.float32)
U = wp.array(np.stack([start, np.zeros(N, np.float32)]), dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    src = 0
    for _ in range(STEPS):
        dst = 1 - src  # expect: TW101
        wp.launch(react, dim=N, inputs=[U, src, dst, rate])
        src = dst
    wp.launch(total, dim=N, inputs=[U, src], outputs=[loss])
tape.backward(loss)
print("d loss / d rate", rate.grad.numpy())
