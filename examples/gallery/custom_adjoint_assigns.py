# tapewatch-test: --check-launches
"""A custom adjoint that assigns `wp.adjoint[x]` where it must add.

`x` reaches the output twice (through the function and directly), so its
adjoint collects two contributions; the custom adjoint's `=` throws the
other one away. The lint (TW307) sees the `=`; the per-launch check
measures the damage and lands on the same line.
"""

import numpy as np
import warp as wp


@wp.func
def cube(x: float):
    return x * x * x


@wp.func_grad(cube)
def adj_cube(x: float, adj_ret: float):
    wp.adjoint[x] = 3.0 * x * x * adj_ret  # expect: TW404  lint: TW307


@wp.kernel
def model(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    v = x[i] * 2.0
    y[i] = cube(v) + v * v


@wp.kernel
def total(y: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, y[i])


x = wp.array(np.linspace(0.5, 1.5, 6, dtype=np.float32), requires_grad=True)
y = wp.zeros(6, dtype=float, requires_grad=True)
out = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(model, dim=6, inputs=[x], outputs=[y])
    wp.launch(total, dim=6, inputs=[y], outputs=[out])
tape.backward(out)
print("d out / d x", x.grad.numpy())
