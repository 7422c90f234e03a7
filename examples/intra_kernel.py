"""Write-after-read inside one kernel.

The kernel normalises positions in place: it reads ``x[i]`` and then writes
``x[i]``.  The adjoint of the read needs the value before the write, which
the forward pass has destroyed.
"""

import numpy as np
import warp as wp

N = 8


@wp.kernel
def squash(x: wp.array(dtype=float), scale: wp.array(dtype=float)):
    i = wp.tid()
    y = x[i] * scale[0]
    x[i] = wp.tanh(y)  # expect: TW104


@wp.kernel
def total(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    wp.atomic_add(out, 0, x[wp.tid()])


x = wp.array(np.linspace(0.1, 1.0, N, dtype=np.float32), requires_grad=True)
scale = wp.array([1.5], dtype=float, requires_grad=True)
out = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(squash, dim=N, inputs=[x, scale])  # compiled-by
    wp.launch(total, dim=N, inputs=[x], outputs=[out])
tape.backward(out)
print("dout/dscale", scale.grad.numpy()[0])
