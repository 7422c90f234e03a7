# tapewatch-test: --check-launches
"""Correct: a clamp sitting exactly at its bound and a bilinear (semi-Lagrangian) lookup that
crosses cell edges. Central differences disagree with the one-sided derivative Warp returns at
such points; the check must see the kink and not call the adjoint wrong."""

import numpy as np
import warp as wp

N = 16


@wp.kernel
def clamp_energy(x: wp.array(dtype=float), lo: float, hi: float, y: wp.array(dtype=float)):
    i = wp.tid()
    c = wp.clamp(x[i], lo, hi)
    y[i] = c * c


@wp.func
def lookup(field: wp.array2d(dtype=float), p: wp.vec2):
    x = wp.clamp(p[0], 0.0, 6.999)
    y = wp.clamp(p[1], 0.0, 6.999)
    i = int(x)
    j = int(y)
    fx = x - float(i)
    fy = y - float(j)
    a = field[i, j] * (1.0 - fx) + field[i + 1, j] * fx
    b = field[i, j + 1] * (1.0 - fx) + field[i + 1, j + 1] * fx
    return a * (1.0 - fy) + b * fy


@wp.kernel
def advect(field: wp.array2d(dtype=float), vel: wp.array(dtype=wp.vec2), out: wp.array(dtype=float)):
    k = wp.tid()
    p = wp.vec2(float(k % 4) * 2.0, float(k // 4) * 2.0) - vel[k] * 0.5
    out[k] = lookup(field, p)


@wp.kernel
def total(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, a[i] + b[i])


x = wp.array(np.concatenate([[0.0, 1.0, -1.0, 1.0], np.linspace(-2, 2, N - 4)]).astype(np.float32),
             requires_grad=True)
y = wp.zeros(N, dtype=float, requires_grad=True)
rng = np.random.default_rng(3)
field = wp.array(rng.standard_normal((8, 8)).astype(np.float32), requires_grad=True)
vel = wp.array((2.0 * np.round(rng.standard_normal((N, 2)))).astype(np.float32), dtype=wp.vec2,
               requires_grad=True)  # whole cells: every lookup sits on a cell edge
z = wp.zeros(N, dtype=float, requires_grad=True)
out = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(clamp_energy, dim=N, inputs=[x, -1.0, 1.0], outputs=[y])
    wp.launch(advect, dim=N, inputs=[field, vel], outputs=[z])
    wp.launch(total, dim=N, inputs=[y, z], outputs=[out])
tape.backward(out)
print("d out / d vel", vel.grad.numpy()[:2])
