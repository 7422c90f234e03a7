"""Correct: `+=` and atomic adds accumulate in place; a constant factor `*=` keeps every gradient."""

import numpy as np
import warp as wp

N = 8


@wp.kernel
def accumulate(f: wp.array(dtype=float), x: wp.array(dtype=float), k: wp.array(dtype=float)):
    i = wp.tid()
    f[i] += -k[0] * x[i]
    wp.atomic_add(f, i, 0.5 * x[i] * x[i])


@wp.kernel
def halve(f: wp.array(dtype=float)):
    i = wp.tid()
    f[i] *= 0.5  # note: TW104 (a constant factor: the adjoint needs no old value)


@wp.kernel
def total(f: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, f[i] * f[i])


x = wp.array(np.linspace(0.0, 1.0, N, dtype=np.float32), requires_grad=True)
k = wp.array([2.0], dtype=float, requires_grad=True)
f = wp.zeros(N, dtype=float, requires_grad=True)
out = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(accumulate, dim=N, inputs=[f, x, k])
    wp.launch(halve, dim=N, inputs=[f])
    wp.launch(total, dim=N, inputs=[f], outputs=[out])
tape.backward(out)
print("d out / d k", k.grad.numpy())
