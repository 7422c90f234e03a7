"""Move 2D particles so that their splatted Gaussian density matches a target density image."""

import numpy as np
import warp as wp

wp.config.quiet = True

G = 12
N_PTS = 6
BW = 0.12  # splat bandwidth


@wp.kernel
def splat(pos: wp.array(dtype=wp.vec2), grid: wp.array2d(dtype=float)):
    p, i, j = wp.tid()
    cell = wp.vec2((float(j) + 0.5) / float(G), (float(i) + 0.5) / float(G))
    d = pos[p] - cell
    wp.atomic_add(grid, i, j, wp.exp(-wp.dot(d, d) / (BW * BW)))


@wp.kernel
def density_loss(grid: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    r = grid[i, j] - target[i, j]
    wp.atomic_add(loss, 0, r * r / float(G * G))


class DensityMatcher:
    def __init__(self):
        self.grid = wp.zeros((G, G), dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        rng = np.random.default_rng(4)
        tgt_pts = wp.array(rng.uniform(0.2, 0.8, (N_PTS, 2)).astype(np.float32), dtype=wp.vec2)
        tgt = wp.zeros((G, G), dtype=float)
        wp.launch(splat, dim=(N_PTS, G, G), inputs=[tgt_pts], outputs=[tgt])
        self.target = tgt

    def loss_and_grad(self, p):
        pos = wp.array(np.asarray(p, dtype=np.float32).reshape(N_PTS, 2), dtype=wp.vec2, requires_grad=True)
        self.loss.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(splat, dim=(N_PTS, G, G), inputs=[pos], outputs=[self.grid])  # expect: missing_zero
            wp.launch(density_loss, dim=(G, G), inputs=[self.grid, self.target], outputs=[self.loss])
        tape.backward(self.loss)
        g = pos.grad.numpy().ravel().astype(np.float64)
        tape.zero()
        return float(self.loss.numpy()[0]), g


PARAMS0 = np.array([0.3, 0.3, 0.5, 0.4, 0.7, 0.35, 0.35, 0.65, 0.55, 0.6, 0.7, 0.7])
LR = 0.05


def verify():
    """Gradient of the second optimisation step vs central differences of a fresh evaluation there."""
    dm = DensityMatcher()
    _, g0 = dm.loss_and_grad(PARAMS0)
    p1 = PARAMS0 - LR * g0
    _, g1 = dm.loss_and_grad(p1)
    fd = np.zeros_like(p1)
    for k in range(p1.size):
        e = np.zeros_like(p1)
        e[k] = 1e-3
        fd[k] = (DensityMatcher().loss_and_grad(p1 + e)[0] - DensityMatcher().loss_and_grad(p1 - e)[0]) / 2e-3
    return g1, fd


if __name__ == "__main__":
    dm = DensityMatcher()
    p = PARAMS0.copy()
    for it in range(30):
        loss, g = dm.loss_and_grad(p)
        p -= LR * g
        if it % 10 == 0:
            print(f"iter {it:2d} loss {loss:.5f}")
    print("positions", np.round(p.reshape(N_PTS, 2), 3).tolist())
