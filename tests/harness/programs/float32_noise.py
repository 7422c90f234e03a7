"""A float32 loss dominated by a large constant: the perturbation's effect drowns in rounding."""

import numpy as np
import warp as wp


@wp.kernel
def energy(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, 1.0e6 + 1.0e-4 * x[i] * x[i])


x = wp.array(np.linspace(0.5, 1.0, 4, dtype=np.float32), requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(energy, dim=4, inputs=[x], outputs=[loss])
tape.backward(loss)
print("grad", x.grad.numpy())
