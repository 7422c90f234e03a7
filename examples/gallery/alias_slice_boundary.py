"""A boundary condition written through a slice of the array a launch read.

`walls = x[N - 2:]` is a view of the last two positions. The launch that
pins them writes `walls`, a different Python object from `x`, so Warp's
tracker (which matches arrays by object) is silent, but the memory is the
memory `advance` read: its adjoint replays against the pinned values.
"""

import numpy as np
import warp as wp

N = 8


@wp.kernel
def advance(x: wp.array(dtype=float), v: wp.array(dtype=float), x_out: wp.array(dtype=float)):
    i = wp.tid()
    x_out[i] = x[i] + v[i] * wp.cos(x[i])


@wp.kernel
def pin(x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = 0.0


@wp.kernel
def loss_kernel(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, x[i] * x[i])


x = wp.array(np.linspace(0.0, 1.0, N, dtype=np.float32), requires_grad=True)
v = wp.full(N, 0.3, dtype=float, requires_grad=True)
x_next = wp.zeros(N, dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
walls = x[N - 2:]

tape = wp.Tape()
with tape:
    wp.launch(advance, dim=N, inputs=[x, v], outputs=[x_next])
    wp.launch(pin, dim=2, inputs=[walls])  # expect: TW101
    wp.launch(loss_kernel, dim=N, inputs=[x_next], outputs=[loss])
tape.backward(loss)
print("d loss / d v", v.grad.numpy())
