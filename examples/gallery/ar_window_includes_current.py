"""Exponential smoothing of a demand series, in place: each step's launch blends day ``t`` with a window of
the days up to and including ``t`` (``x[t - s]`` for ``s`` in ``range(3)``, so ``s = 0`` reads ``x[t]``) and
writes the result back over ``x[t]``.  The adjoint of the blend reads ``x[t]`` after it was overwritten:
the in-kernel store is the line to change (write to a separate output)."""

import numpy as np
import warp as wp

wp.config.quiet = True

DAYS = 20


@wp.kernel
def smooth(x: wp.array(dtype=float), a: wp.array(dtype=float), t: int):
    acc = float(0.0)
    for s in range(3):
        acc += x[t - s] * x[t - s]
    x[t] = wp.sqrt(a[0] * acc + 1.0e-3)  # expect: TW104


@wp.kernel
def total(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, x[i])


a = wp.array([0.4], dtype=float, requires_grad=True)
x = wp.array(np.linspace(1.0, 2.0, DAYS).astype(np.float32), dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    for t in range(2, DAYS):
        wp.launch(smooth, dim=1, inputs=[x, a, t])  # note: TW101
    wp.launch(total, dim=DAYS, inputs=[x], outputs=[loss])
tape.backward(loss)
print(float(loss.numpy()[0]), a.grad.numpy())
