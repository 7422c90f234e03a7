"""A rollout whose gradient breaks only after step 3: a contact force switches on, computed into a
buffer that a later launch overwrites (ping-pong) only once the contact is active."""

import numpy as np
import warp as wp

N = 4
STEPS = 8


@wp.kernel
def advance(x: wp.array(dtype=float), k: wp.array(dtype=float), step: int, x_out: wp.array(dtype=float)):
    i = wp.tid()
    f = 0.0
    if step >= 3:
        f = -k[0] * x[i] * x[i]
    x_out[i] = x[i] + 0.1 * f + 0.01


@wp.kernel
def loss_kernel(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, x[i] * x[i])


k = wp.array([0.5], dtype=float, requires_grad=True)
a = wp.array(np.linspace(0.5, 1.0, N, dtype=np.float32), requires_grad=True)
b = wp.zeros(N, dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    for s in range(STEPS):
        wp.launch(advance, dim=N, inputs=[a, k, s], outputs=[b])
        a, b = b, a
    wp.launch(loss_kernel, dim=N, inputs=[a], outputs=[loss])
tape.backward(loss)
print("d loss / d k", k.grad.numpy())
