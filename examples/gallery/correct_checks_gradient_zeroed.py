"""A training loop that checks its own bookkeeping: after each step it zeroes the gradients and asserts
that they are zero (as Warp's own tests do).  Reading a gradient after ``tape.zero()`` to see zeros is what
this program means to do."""

import numpy as np
import warp as wp

wp.config.quiet = True


@wp.kernel
def misfit(k: wp.array(dtype=float), t: wp.array(dtype=float), y: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = wp.exp(-k[0] * t[i]) - y[i]
    wp.atomic_add(loss, 0, d * d)


t = wp.array(np.linspace(0.0, 2.0, 16).astype(np.float32))
y = wp.array(np.exp(-1.3 * np.linspace(0.0, 2.0, 16)).astype(np.float32))
k = wp.array([0.5], dtype=float, requires_grad=True)
tape = wp.Tape()
for step in range(5):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    with tape:
        wp.launch(misfit, dim=16, inputs=[k, t, y], outputs=[loss])
    tape.backward(loss)
    k.assign(k.numpy() - 0.5 * k.grad.numpy())
    tape.zero()
    assert k.grad.numpy().sum() == 0.0
    np.testing.assert_array_equal(k.grad.numpy(), np.zeros(1, dtype=np.float32))
    tape.reset()
print("decay rate", k.numpy()[0])
