"""Incidence forecast by a renewal equation: each step's launch writes day ``t`` from a window of the
seven days before it (``inc[t - 1 - s]`` for ``s`` in ``range(7)``), in place in one history array.  Warp's
tracker flags the array, but no element is read and then overwritten: a step reads only days before ``t``
and writes day ``t``, which only later steps read."""

import numpy as np
import warp as wp

wp.config.quiet = True

DAYS = 30
WINDOW = 7
SERIAL = np.array([0.05, 0.15, 0.25, 0.22, 0.16, 0.1, 0.07], dtype=np.float32)


@wp.kernel
def renewal(inc: wp.array(dtype=float), w: wp.array(dtype=float), r: wp.array(dtype=float), t: int):
    acc = float(0.0)
    for s in range(WINDOW):
        acc += w[s] * inc[t - 1 - s]
    inc[t] = r[0] * acc  # note: TW104


@wp.kernel
def total(inc: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, wp.log(1.0 + inc[i]))


r = wp.array([1.3], dtype=float, requires_grad=True)
w = wp.array(SERIAL, dtype=float)
seed = np.zeros(DAYS, dtype=np.float32)
seed[:WINDOW] = 5.0
inc = wp.array(seed, dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    for t in range(WINDOW, DAYS):
        wp.launch(renewal, dim=1, inputs=[inc, w, r, t])  # note: TW101
    wp.launch(total, dim=DAYS, inputs=[inc], outputs=[loss])
tape.backward(loss)
print(float(loss.numpy()[0]), r.grad.numpy())
