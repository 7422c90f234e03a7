# tapewatch-test: --check-launches
"""Soft-plus activation with a hand-written adjoint split by sign for stability, right in both branches:
the negative branch writes the logistic function as e / (1 + e), which does not overflow."""

import numpy as np
import warp as wp

wp.config.quiet = True


@wp.func
def softplus(x: float):
    if x > 0.0:
        return x + wp.log(1.0 + wp.exp(-x))
    return wp.log(1.0 + wp.exp(x))


@wp.func_grad(softplus)
def adj_softplus(x: float, adj_ret: float):
    if x > 0.0:
        wp.adjoint[x] += adj_ret / (1.0 + wp.exp(-x))
    else:
        e = wp.exp(x)
        wp.adjoint[x] += adj_ret * e / (1.0 + e)


@wp.kernel
def layer(w: wp.array(dtype=float), x: wp.array(dtype=float), y: wp.array(dtype=float),
          loss: wp.array(dtype=float)):
    i = wp.tid()
    h = softplus(w[0] * x[i] + w[1])
    d = h - y[i]
    wp.atomic_add(loss, 0, d * d)


rng = np.random.default_rng(2)
x = wp.array(rng.uniform(-3.0, 3.0, 64).astype(np.float32))
y = wp.array(np.log1p(np.exp(1.5 * x.numpy() - 0.5)).astype(np.float32))
w = wp.array([0.8, 0.1], dtype=float, requires_grad=True)
for it in range(3):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(layer, dim=64, inputs=[w, x, y], outputs=[loss])
    tape.backward(loss)
    w.assign(w.numpy() - 0.01 * w.grad.numpy())
    tape.zero()
print("weights", w.numpy())
