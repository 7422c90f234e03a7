"""Gaussian kernel density estimate on a 1-D grid, accumulated by splatting."""
import numpy as np
import warp as wp

G = 32
BANDWIDTH = 0.08


@wp.kernel
def splat(pos: wp.array(dtype=float), weight: float, h: float, grid: wp.array(dtype=float)):
    p, c = wp.tid()
    n = grid.shape[0]
    xc = (float(c) + 0.5) / float(n)
    d = (pos[p] - xc) / h
    wp.atomic_add(grid, c, weight * wp.exp(-0.5 * d * d))


@wp.kernel
def density_misfit(grid: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    c = wp.tid()
    r = grid[c] - target[c]
    wp.atomic_add(loss, 0, r * r)


def reference_density():
    x = (np.arange(G) + 0.5) / G
    d = np.exp(-0.5 * ((x - 0.3) / 0.1) ** 2) + 0.6 * np.exp(-0.5 * ((x - 0.72) / 0.07) ** 2)
    return (d / d.sum() * G * 0.35).astype(np.float32)


class DensityFit:
    def __init__(self, pos0):
        self.pos = wp.array(np.asarray(pos0, dtype=np.float32), dtype=float, requires_grad=True)
        self.grid = wp.zeros(G, dtype=float, requires_grad=True)
        self.target = wp.array(reference_density(), dtype=float)
        self.weight = 1.0 / len(pos0)

    def loss_and_grad(self):
        self.grid.grad.zero_()  # expect: missing_zero
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(splat, dim=(self.pos.shape[0], G), inputs=[self.pos, self.weight, BANDWIDTH],
                      outputs=[self.grid])
            wp.launch(density_misfit, dim=G, inputs=[self.grid, self.target], outputs=[loss])
        tape.backward(loss)
        g = self.pos.grad.numpy().copy()
        self.pos.grad.zero_()
        return float(loss.numpy()[0]), g
