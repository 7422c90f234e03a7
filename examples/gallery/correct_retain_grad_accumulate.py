"""Correct: two force kernels accumulate into one retain_grad buffer; each really contributes."""

import numpy as np
import warp as wp

N = 8


@wp.kernel
def spring(x: wp.array(dtype=float), k: wp.array(dtype=float), f: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(f, i, -k[0] * x[i])


@wp.kernel
def gravity(m: wp.array(dtype=float), f: wp.array(dtype=float)):
    i = wp.tid()
    f[i] += -9.8 * m[i]


@wp.kernel
def work(f: wp.array(dtype=float), x: wp.array(dtype=float), e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, f[i] * x[i])


x = wp.array(np.linspace(0.1, 1.0, N, dtype=np.float32), requires_grad=True)
k = wp.array([3.0], dtype=float, requires_grad=True)
m = wp.full(N, 0.2, dtype=float, requires_grad=True)
f = wp.zeros(N, dtype=float, requires_grad=True, retain_grad=True)
e = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(spring, dim=N, inputs=[x, k], outputs=[f])
    wp.launch(gravity, dim=N, inputs=[m], outputs=[f])
    wp.launch(work, dim=N, inputs=[f, x], outputs=[e])
tape.backward(e)
print("d e / d k", k.grad.numpy(), "f.grad", f.grad.numpy()[:2])
