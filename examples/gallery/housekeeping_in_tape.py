"""Housekeeping left inside `with tape:` after the loss launch.

After the loss is computed, the loop clears the force buffer and copies the
new state over the old one for the next iteration, still inside the tape:
both overwrite arrays the tape read.
"""

import numpy as np
import warp as wp

N = 6


@wp.kernel
def forces(x: wp.array(dtype=float), k: wp.array(dtype=float), f: wp.array(dtype=float)):
    i = wp.tid()
    f[i] = -k[0] * x[i] * x[i] * x[i]


@wp.kernel
def integrate(x: wp.array(dtype=float), f: wp.array(dtype=float), x_out: wp.array(dtype=float)):
    i = wp.tid()
    x_out[i] = x[i] + 0.01 * f[i] * x[i]


@wp.kernel
def loss_kernel(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, x[i] * x[i])


x = wp.array(np.linspace(0.5, 1.0, N, dtype=np.float32), requires_grad=True)
x_new = wp.zeros(N, dtype=float, requires_grad=True)
f = wp.zeros(N, dtype=float, requires_grad=True)
k = wp.array([2.0], dtype=float, requires_grad=True)
for it in range(2):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(forces, dim=N, inputs=[x, k], outputs=[f])
        wp.launch(integrate, dim=N, inputs=[x, f], outputs=[x_new])
        wp.launch(loss_kernel, dim=N, inputs=[x_new], outputs=[loss])
        f.zero_()  # expect: TW103
        wp.copy(x, x_new)  # expect: TW102
    tape.backward(loss)
    print("d loss / d k", k.grad.numpy())
