# tapewatch-test: --check-launches
"""Particle-in-cell step on a 1-D grid: the grid update adds gravity to the momentum in place
(`mv[i] += dt * m[i] * g`) and then reads the updated momentum to get the velocity.

Accumulating needs no old value, and the velocity reads the momentum the launch
left, which is what Warp's adjoint replays with: the launch's adjoint agrees
with finite differences (and end to end: 0.2366 against 0.2370, float32 differences).
"""
import numpy as np
import warp as wp

CELLS = 12
P = 20
DT = 0.05


@wp.kernel
def p2g(x: wp.array(dtype=float), v: wp.array(dtype=float), density: wp.array(dtype=float),
        m: wp.array(dtype=float), mv: wp.array(dtype=float)):
    p, c = wp.tid()
    d = x[p] * float(CELLS) - (float(c) + 0.5)
    w = wp.exp(-d * d) * density[0]
    wp.atomic_add(m, c, w)
    wp.atomic_add(mv, c, w * v[p])


@wp.kernel
def grid_update(m: wp.array(dtype=float), mv: wp.array(dtype=float), grid_v: wp.array(dtype=float)):
    i = wp.tid()
    mv[i] += DT * m[i] * -9.8
    grid_v[i] = mv[i] / (m[i] + 0.05)


@wp.kernel
def speed_loss(grid_v: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, grid_v[i] * grid_v[i])


def loss_of(density_value):
    rng = np.random.default_rng(5)
    x = wp.array(rng.uniform(0.1, 0.9, P).astype(np.float32))
    v = wp.array(rng.normal(size=P).astype(np.float32))
    density = wp.array([density_value], dtype=float, requires_grad=True)
    m = wp.zeros(CELLS, dtype=float, requires_grad=True)
    mv = wp.zeros(CELLS, dtype=float, requires_grad=True)
    grid_v = wp.zeros(CELLS, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(p2g, dim=(P, CELLS), inputs=[x, v, density], outputs=[m, mv])
        wp.launch(grid_update, dim=CELLS, inputs=[m, mv], outputs=[grid_v])
        wp.launch(speed_loss, dim=CELLS, inputs=[grid_v], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), float(density.grad.numpy()[0])


value, grad = loss_of(1.3)
h = 1e-3
fd = (loss_of(1.3 + h)[0] - loss_of(1.3 - h)[0]) / (2 * h)
print("loss %.5f  d/d density: adjoint %.5f  finite differences %.5f" % (value, grad, fd))
