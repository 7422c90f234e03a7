# tapewatch-test: --check-launches
"""Correct: a custom adjoint with the right math, checked against finite differences."""

import numpy as np
import warp as wp


@wp.func
def softplus(x: float, beta: float):
    return wp.log(1.0 + wp.exp(beta * x)) / beta


@wp.func_grad(softplus)
def adj_softplus(x: float, beta: float, adj_ret: float):
    s = 1.0 / (1.0 + wp.exp(-beta * x))
    wp.adjoint[x] += adj_ret * s


@wp.kernel
def activate(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = softplus(x[i], 2.0) * x[i]


@wp.kernel
def total(y: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, y[i])


x = wp.array(np.linspace(-2.0, 2.0, 8, dtype=np.float32), requires_grad=True)
y = wp.zeros(8, dtype=float, requires_grad=True)
out = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(activate, dim=8, inputs=[x], outputs=[y])
    wp.launch(total, dim=8, inputs=[y], outputs=[out])
tape.backward(out)
print("d out / d x", x.grad.numpy())
