"""Correct: a record_func callback reuses a staging buffer that only a later launch read.

The callback runs during backward(), after the adjoint of the launch that
read `staging` has already replayed (launches recorded after the callback
replay before it), so overwriting `staging` there changes no gradient.
"""

import numpy as np
import warp as wp

N = 16


@wp.kernel
def square(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * x[i]


@wp.kernel
def weigh(y: wp.array(dtype=float), staging: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, y[i] * staging[i] * staging[i])


x = wp.array(np.linspace(0.5, 1.5, N, dtype=np.float32), requires_grad=True)
y = wp.zeros(N, dtype=float, requires_grad=True)
staging = wp.array(np.full(N, 2.0, dtype=np.float32))
loss = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(square, dim=N, inputs=[x], outputs=[y])

    def release_staging():
        # A side effect recorded on the tape: runs during backward(), after `weigh` (recorded later)
        # has replayed its adjoint, so clearing the buffer it read changes no gradient.
        staging.assign(np.zeros(N, dtype=np.float32))

    tape.record_func(backward=release_staging, arrays=[y])
    wp.launch(weigh, dim=N, inputs=[y, staging], outputs=[loss])
tape.backward(loss)
assert np.allclose(x.grad.numpy(), 8.0 * x.numpy()), "d(sum 4 x^2)/dx = 8x"
print("dloss/dx", x.grad.numpy()[:3])
