"""Particles splatted into a density grid with atomic adds, the grid compared with a target; before
each iteration reset() clears the grid and its gradient, so every iteration's splat starts from zero."""

import numpy as np
import warp as wp

P = 32
CELLS = 8


@wp.kernel
def splat(x: wp.array(dtype=float), grid: wp.array(dtype=float)):
    p, c = wp.tid()
    d = x[p] * float(CELLS) - (float(c) + 0.5)
    wp.atomic_add(grid, c, wp.exp(-d * d))


@wp.kernel
def mismatch(grid: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    c = wp.tid()
    r = grid[c] - target[c]
    wp.atomic_add(loss, 0, r * r)


class DensityFit:
    def __init__(self, x0, target):
        self.x = wp.array(x0, dtype=float, requires_grad=True)
        self.grid = wp.zeros(CELLS, dtype=float, requires_grad=True)
        self.target = target
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    def reset(self):
        self.loss.zero_()
        self.grid.zero_()
        self.grid.grad.zero_()

    def step(self, lr):
        self.reset()
        tape = wp.Tape()
        with tape:
            wp.launch(splat, dim=(P, CELLS), inputs=[self.x], outputs=[self.grid])
            wp.launch(mismatch, dim=CELLS, inputs=[self.grid, self.target], outputs=[self.loss])
        tape.backward(self.loss)
        self.x.assign(self.x.numpy() - lr * self.x.grad.numpy())
        tape.zero()
        return float(self.loss.numpy()[0])


rng = np.random.default_rng(6)
target = wp.array(rng.uniform(0.5, 4.0, CELLS).astype(np.float32), dtype=float)
fit = DensityFit(rng.uniform(0.1, 0.9, P).astype(np.float32), target)
for it in range(3):
    print("loss", fit.step(0.001))
