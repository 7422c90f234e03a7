"""A quantizer in the loss: the gradient of round() is zero almost everywhere, and that is correct."""

import numpy as np
import warp as wp


@wp.kernel
def quantize(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    q = wp.round(x[i] * 4.0) / 4.0
    wp.atomic_add(out, 0, q * q)


x = wp.array(np.array([0.125, 0.375, 0.625, 0.875], dtype=np.float32), requires_grad=True)  # on the steps
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(quantize, dim=4, inputs=[x], outputs=[loss])
tape.backward(loss)
print("grad", x.grad.numpy())
