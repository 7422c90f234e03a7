"""Particle-to-grid transfer into a mass grid and a momentum grid (both atomic adds in one launch);
clear() empties the grids it lists, and the list leaves the momentum grid out, so it keeps every
earlier iteration's momentum.  The line to change is the list (the look-alike lists both)."""

import numpy as np
import warp as wp

P = 24
CELLS = 8


@wp.kernel
def p2g(x: wp.array(dtype=float), v: wp.array(dtype=float), mass: wp.array(dtype=float),
        momentum: wp.array(dtype=float)):
    p, c = wp.tid()
    d = x[p] * float(CELLS) - (float(c) + 0.5)
    w = wp.exp(-d * d)
    wp.atomic_add(mass, c, w)
    wp.atomic_add(momentum, c, w * v[p])


@wp.kernel
def grid_velocity_loss(mass: wp.array(dtype=float), momentum: wp.array(dtype=float), loss: wp.array(dtype=float)):
    c = wp.tid()
    u = momentum[c] / (mass[c] + 1.0e-3)
    wp.atomic_add(loss, 0, u * u)


class Transfer:
    def __init__(self, x, v):
        self.x = wp.array(x, dtype=float, requires_grad=True)
        self.v = wp.array(v, dtype=float, requires_grad=True)
        self.mass = wp.zeros(CELLS, dtype=float, requires_grad=True)
        self.momentum = wp.zeros(CELLS, dtype=float, requires_grad=True)

    def clear(self):
        for grid in [self.mass]:  # expect: TW209
            grid.zero_()

    def step(self, lr):
        self.clear()
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(p2g, dim=(P, CELLS), inputs=[self.x, self.v], outputs=[self.mass, self.momentum])
            wp.launch(grid_velocity_loss, dim=CELLS, inputs=[self.mass, self.momentum], outputs=[loss])
        tape.backward(loss)
        self.v.assign(self.v.numpy() - lr * self.v.grad.numpy())
        tape.zero()
        return float(loss.numpy()[0])


rng = np.random.default_rng(8)
transfer = Transfer(rng.uniform(0.1, 0.9, P).astype(np.float32), rng.normal(size=P).astype(np.float32))
for it in range(3):
    print("loss", transfer.step(0.01))
