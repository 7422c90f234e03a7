# correct: a density grid accumulated with atomics is reused across iterations and its reset() is easy to get wrong, but here it clears the grid itself before every forward pass
"""Particle-to-grid density matching: move N particles (their positions are
the unknowns) so that their splatted 2-D density (bilinear kernel, atomic
scatter) matches a target occupancy grid.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

G = 10
N = 40
CELL = 1.0 / G


@wp.kernel
def splat_bilinear(pos: wp.array(dtype=wp.vec2), grid: wp.array2d(dtype=float)):
    i = wp.tid()
    g = pos[i] / CELL - wp.vec2(0.5, 0.5)
    x0 = int(wp.floor(g[0]))
    y0 = int(wp.floor(g[1]))
    fx = g[0] - float(x0)
    fy = g[1] - float(y0)
    for dy in range(2):
        for dx in range(2):
            cx = x0 + dx
            cy = y0 + dy
            if cx >= 0 and cx < G and cy >= 0 and cy < G:
                wx = wp.where(dx == 0, 1.0 - fx, fx)
                wy = wp.where(dy == 0, 1.0 - fy, fy)
                wp.atomic_add(grid, cy, cx, wx * wy)


@wp.kernel
def density_loss(grid: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    y, x = wp.tid()
    r = grid[y, x] - target[y, x]
    wp.atomic_add(loss, 0, r * r)


class DensityMatcher:
    def __init__(self, pos, target):
        self.pos = wp.array(np.asarray(pos, np.float32).reshape(N, 2), dtype=wp.vec2, requires_grad=True)
        self.target = target
        self.grid = wp.zeros((G, G), dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.tape = wp.Tape()

    def reset(self):
        self.loss.zero_()
        self.grid.zero_()

    def loss_and_grad(self):
        self.reset()
        self.tape.reset()
        with self.tape:
            wp.launch(splat_bilinear, dim=N, inputs=[self.pos], outputs=[self.grid])
            wp.launch(density_loss, dim=(G, G), inputs=[self.grid, self.target], outputs=[self.loss])
        self.tape.backward(self.loss)
        g = self.pos.grad.numpy().ravel().astype(np.float64).copy()
        self.tape.zero()
        return float(self.loss.numpy()[0]), g

    def step(self, lr):
        loss, g = self.loss_and_grad()
        self.pos.assign((self.pos.numpy().ravel() - lr * g).reshape(N, 2).astype(np.float32))
        return loss


def _target():
    rng = np.random.default_rng(3)
    pts = np.concatenate([rng.normal([0.3, 0.3], 0.08, (N // 2, 2)), rng.normal([0.7, 0.6], 0.1, (N // 2, 2))])
    grid = wp.zeros((G, G), dtype=float)
    wp.launch(splat_bilinear, dim=N, inputs=[wp.array(np.clip(pts, 0.06, 0.94).astype(np.float32), dtype=wp.vec2)], outputs=[grid])
    return grid


TARGET = _target()
PARAMS0 = np.random.default_rng(4).uniform(0.2, 0.8, 2 * N)
LR = 0.0005


def verify():
    """AD: gradient at the second iteration (grid reused); FD: central differences
    of the density loss at that iteration's positions (fresh matcher each time)."""
    m = DensityMatcher(PARAMS0, TARGET)
    m.step(LR)
    p1 = m.pos.numpy().ravel().astype(np.float64)
    _, ad = m.loss_and_grad()
    h = 1e-4
    fd = np.zeros_like(p1)
    for i in range(p1.size):
        e = np.zeros_like(p1)
        e[i] = h
        fd[i] = (DensityMatcher(p1 + e, TARGET).loss_and_grad()[0] - DensityMatcher(p1 - e, TARGET).loss_and_grad()[0]) / (2 * h)
    return ad, fd


if __name__ == "__main__":
    m = DensityMatcher(PARAMS0, TARGET)
    for it in range(100):
        loss = m.step(LR)
        if it % 25 == 0:
            print(f"iter {it:3d} density loss {loss:.4f}")
