"""``wp.copy`` onto an array that an earlier launch on the same tape read.

A spring network keeps a "previous positions" buffer for a damping term and
refreshes it with ``wp.copy`` after each step, inside the tape.  The damping
launch's adjoint then sees the refreshed values, not the ones it used.
"""

import numpy as np
import warp as wp

N = 16


@wp.kernel
def damp(x: wp.array(dtype=float), x_prev: wp.array(dtype=float), k: float, x_out: wp.array(dtype=float)):
    i = wp.tid()
    x_out[i] = x[i] - k * (x[i] - x_prev[i]) * (x[i] - x_prev[i])


@wp.kernel
def total(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    wp.atomic_add(out, 0, x[wp.tid()])


x = wp.array(np.linspace(0.0, 1.0, N, dtype=np.float32), requires_grad=True)
x_prev = wp.array(np.zeros(N, dtype=np.float32), requires_grad=True)  # alloc: x_prev
x_next = wp.zeros(N, dtype=float, requires_grad=True)
out = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(damp, dim=N, inputs=[x, x_prev, 0.1], outputs=[x_next])  # reader
    wp.copy(x_prev, x)  # expect: TW102
    wp.launch(total, dim=N, inputs=[x_next], outputs=[out])
tape.backward(out)
print("dout/dx[:3]", x.grad.numpy()[:3])
