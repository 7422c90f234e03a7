"""Gradients never zeroed between optimizer steps.

A fresh tape per iteration looks clean, but a new tape zeroes nothing and
Warp accumulates into ``.grad``: without ``tape.zero()`` after the update (or
one tape, ``tape.reset()`` each iteration), every backward pass adds to the
gradient of the previous iterations, and the optimizer steps on the sum.
The loss oscillates or diverges while every single gradient is right.
"""

import numpy as np
import warp as wp

N = 16


@wp.kernel
def residual(x: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


@wp.kernel
def sgd(p: wp.array(dtype=float), g: wp.array(dtype=float), lr: float):
    i = wp.tid()
    p[i] = p[i] - lr * g[i]


x = wp.zeros(N, dtype=float, requires_grad=True)  # alloc: x
target = wp.array(np.linspace(0.0, 1.0, N, dtype=np.float32))

for it in range(4):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()  # expect: TW202
    with tape:
        wp.launch(residual, dim=N, inputs=[x, target], outputs=[loss])  # reader
    tape.backward(loss)  # backward
    wp.launch(sgd, dim=N, inputs=[x, x.grad, 0.1])
    # the bug: no tape.zero() here
    print("iteration", it, "loss", loss.numpy()[0])
