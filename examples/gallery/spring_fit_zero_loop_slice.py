"""Two parameters fitted by a hand-written SGD loop; after each step the loop that zeroes the gradients
runs over `params[:1]`, so the second parameter's gradient keeps the previous iterations' gradients and
each backward adds to it.  The line to change is that loop's slice (the look-alike loops over all)."""

import numpy as np
import warp as wp

N = 16


@wp.kernel
def residual(x: wp.array(dtype=float), k: wp.array(dtype=float), c: wp.array(dtype=float),
             y: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = k[0] * x[i] + c[0] * x[i] * x[i] - y[i]
    wp.atomic_add(loss, 0, r * r)


xs = np.linspace(-1.0, 1.0, N, dtype=np.float32)
x = wp.array(xs, dtype=float)
y = wp.array(2.0 * xs + 0.5 * xs * xs, dtype=float)
k = wp.array([0.0], dtype=float, requires_grad=True)
c = wp.array([0.0], dtype=float, requires_grad=True)
params = [k, c]
for it in range(5):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(residual, dim=N, inputs=[x, k, c, y], outputs=[loss])
    tape.backward(loss)
    for p in params:
        p.assign(p.numpy() - 0.05 * p.grad.numpy())
    for p in params[:1]:  # expect: TW202
        p.grad.zero_()
print("k", k.numpy(), "c", c.numpy())
