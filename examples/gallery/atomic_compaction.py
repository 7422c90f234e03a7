"""Stream compaction with slots claimed by `wp.atomic_add`, inside a differentiated tape.

The backward pass does not replay the atomic, so the slot there is not the
slot the forward pass claimed: the gradient of every active element but one
comes out zero (measured: [2, 0, 0, 0, 0, 0] instead of [2, 0, 4, 6, 0, 8]).
"""

import numpy as np
import warp as wp

N = 6


@wp.func
def keep(v: float):
    return v > 0.0


@wp.kernel
def compact(x: wp.array(dtype=float), counter: wp.array(dtype=int), out: wp.array(dtype=float)):
    i = wp.tid()
    if keep(x[i]):
        slot = wp.atomic_add(counter, 0, 1)  # expect: TW206  lint: TW308
        out[slot] = x[i] * x[i]


@wp.kernel
def total(out: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, out[i])


x = wp.array(np.array([1.0, -1.0, 2.0, 3.0, -2.0, 4.0], dtype=np.float32), requires_grad=True)
counter = wp.zeros(1, dtype=int)
out = wp.zeros(N, dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(compact, dim=N, inputs=[x, counter], outputs=[out])
    wp.launch(total, dim=N, inputs=[out], outputs=[loss])
tape.backward(loss)
print("d loss / d x", x.grad.numpy())
