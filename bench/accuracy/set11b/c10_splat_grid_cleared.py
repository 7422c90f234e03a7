# correct: a persistent density grid is filled by atomic_add on every training iteration, but it is zero_()-ed before each recording, so every iteration starts from an empty grid.
"""Move a 2-D point cloud (16 points) so that its splatted density on a 12x12
grid matches a ring-shaped target (hand-written gradient descent)."""
import numpy as np
import warp as wp

wp.config.quiet = True

G = 12
P = 16
SIG = 0.12
LR = 0.05
ITERS = 3
rng = np.random.default_rng(3)
POS0 = (0.5 + 0.15 * rng.normal(size=(P, 2))).astype(np.float32)


@wp.kernel
def splat2d(pos: wp.array(dtype=wp.vec2), sig: float, grid: wp.array2d(dtype=float)):
    p, c = wp.tid()
    gx = c % G
    gy = c // G
    centre = wp.vec2((float(gx) + 0.5) / float(G), (float(gy) + 0.5) / float(G))
    d = (pos[p] - centre) / sig
    wp.atomic_add(grid, gy, gx, wp.exp(-0.5 * wp.dot(d, d)) / float(P))


@wp.kernel
def grid_misfit(grid: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    r = grid[i, j] - target[i, j]
    wp.atomic_add(loss, 0, r * r)


def ring_target():
    c = (np.arange(G) + 0.5) / G
    X, Y = np.meshgrid(c, c)
    r = np.sqrt((X - 0.5) ** 2 + (Y - 0.5) ** 2)
    t = np.exp(-0.5 * ((r - 0.3) / 0.08) ** 2)
    return (0.25 * t / t.max()).astype(np.float32)


TARGET = ring_target()


class Splatter:
    def __init__(self):
        self.grid = wp.zeros((G, G), dtype=float, requires_grad=True)
        self.target = wp.array(TARGET, dtype=float)

    def loss(self, pos):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        wp.launch(splat2d, dim=(pos.shape[0], G * G), inputs=[pos, SIG], outputs=[self.grid])
        wp.launch(grid_misfit, dim=(G, G), inputs=[self.grid, self.target], outputs=[loss])
        return loss


def objective(flat):
    s = Splatter()
    return float(s.loss(wp.array(flat.reshape(P, 2).astype(np.float32), dtype=wp.vec2)).numpy()[0])


def train(iters, log=False):
    sp = Splatter()
    pos = wp.array(POS0, dtype=wp.vec2, requires_grad=True)
    tape = wp.Tape()
    for it in range(iters):
        sp.grid.zero_()
        with tape:
            loss = sp.loss(pos)
        tape.backward(loss)
        at = pos.numpy().ravel().astype(np.float64)
        g = pos.grad.numpy().ravel().astype(np.float64)
        pos.assign((at - LR * g).reshape(P, 2).astype(np.float32))
        tape.reset()
        if log and it % 10 == 0:
            print(f"iter {it} density misfit {loss.numpy()[0]:.5f}")
    return at, g


def verify():
    at, ad = train(ITERS)
    h = 1.0e-3
    fd = np.array([(objective(at + h * e) - objective(at - h * e)) / (2 * h) for e in np.eye(at.size)])
    return ad, fd


if __name__ == "__main__":
    train(40, log=True)
