"""Correct: atomics whose return values are discarded (accumulation), and a slot counter in an
undifferentiated bookkeeping launch."""

import numpy as np
import warp as wp

N = 6


@wp.kernel
def count_active(x: wp.array(dtype=float), counter: wp.array(dtype=int), slots: wp.array(dtype=int)):
    i = wp.tid()
    slots[i] = -1
    if x[i] > 0.0:
        slots[i] = wp.atomic_add(counter, 0, 1)  # integer slots only: nothing for an adjoint to misplace


@wp.kernel
def gather(x: wp.array(dtype=float), slots: wp.array(dtype=int), out: wp.array(dtype=float)):
    i = wp.tid()
    s = slots[i]
    if s >= 0:
        out[s] = x[i] * x[i]


@wp.kernel
def total(out: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, out[i])


x = wp.array(np.array([1.0, -1.0, 2.0, 3.0, -2.0, 4.0], dtype=np.float32), requires_grad=True)
counter = wp.zeros(1, dtype=int)
slots = wp.zeros(N, dtype=int)
wp.launch(count_active, dim=N, inputs=[x, counter, slots])  # outside the tape: no gradient needed
out = wp.zeros(N, dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(gather, dim=N, inputs=[x, slots], outputs=[out])
    wp.launch(total, dim=N, inputs=[out], outputs=[loss])
tape.backward(loss)
print("d loss / d x", x.grad.numpy())
