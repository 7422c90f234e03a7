"""backward() without a loss, seeded by hand through y.grad; the gradient is only printed."""

import numpy as np
import warp as wp

@wp.kernel
def f(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = wp.sin(x[i]) * x[i]

x = wp.array(np.linspace(0.1, 1.0, 4, dtype=np.float32), requires_grad=True)
y = wp.zeros(4, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(f, dim=4, inputs=[x], outputs=[y])
y.grad.fill_(1.0)
tape.backward()
print("x.grad", x.grad.numpy())
