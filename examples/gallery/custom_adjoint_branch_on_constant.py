# tapewatch-test: --check-launches
"""A rolling-resistance law with a hand-written adjoint split at a module constant (`V_SLIP`): below it
the resistance grows with the square of speed, above it linearly.  The linear branch's coefficient
partial drops the factor 2; inputs on both sides reach it, and that branch is the line to change."""

import numpy as np
import warp as wp

wp.config.quiet = True

V_SLIP = 4.0


@wp.func
def resistance(v: float, c: float):
    if v < V_SLIP:
        return c * v * v
    return c * (2.0 * V_SLIP * v - V_SLIP * V_SLIP)


@wp.func_grad(resistance)
def adj_resistance(v: float, c: float, adj_ret: float):
    if v < V_SLIP:
        wp.adjoint[c] += adj_ret * v * v
        wp.adjoint[v] += adj_ret * 2.0 * c * v
    else:
        wp.adjoint[c] += adj_ret * V_SLIP * v  # expect: TW404
        wp.adjoint[v] += adj_ret * 2.0 * c * V_SLIP


@wp.kernel
def misfit(c: wp.array(dtype=float), v: wp.array(dtype=float), force: wp.array(dtype=float),
           loss: wp.array(dtype=float)):
    i = wp.tid()
    d = resistance(v[i], c[0]) - force[i]
    wp.atomic_add(loss, 0, d * d)


speeds = np.linspace(1.0, 8.0, 32).astype(np.float32)
forces = np.where(speeds < 4.0, 0.3 * speeds ** 2, 0.3 * (8.0 * speeds - 16.0)).astype(np.float32)
v = wp.array(speeds, dtype=float)
force = wp.array(forces, dtype=float)
c = wp.array([0.2], dtype=float, requires_grad=True)
for it in range(3):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(misfit, dim=32, inputs=[c, v, force], outputs=[loss])
    tape.backward(loss)
    c.assign(c.numpy() - 1e-4 * c.grad.numpy())
    tape.zero()
print("coefficient", c.numpy())
