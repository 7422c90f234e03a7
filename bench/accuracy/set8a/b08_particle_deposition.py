"""Particle-in-cell deposition: choose a drift velocity and a smoothing width so that the
deposited particle density after transport matches a measured density image."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

G = 8
H = 1.0 / G
T_FLIGHT = 0.5


@wp.kernel
def transport(x0: wp.array(dtype=wp.vec2d), params: wp.array(dtype=wp.float64), t: wp.float64,
              x: wp.array(dtype=wp.vec2d)):
    i = wp.tid()
    u = wp.vec2d(params[0], params[1])
    # linear drag towards the drift velocity, closed form
    x[i] = x0[i] + u * (t - (wp.float64(1.0) - wp.exp(-wp.float64(2.0) * t)) * wp.float64(0.5))


@wp.kernel
def splat(x: wp.array(dtype=wp.vec2d), params: wp.array(dtype=wp.float64), h: wp.float64,
          grid: wp.array2d(dtype=wp.float64)):
    p, gi, gj = wp.tid()
    c = wp.vec2d((wp.float64(gi) + wp.float64(0.5)) * h, (wp.float64(gj) + wp.float64(0.5)) * h)
    d = x[p] - c
    s = params[2]
    w = h * h / (wp.float64(6.283185307179586) * s * s) * wp.exp(-wp.dot(d, d) / (wp.float64(2.0) * s * s))
    wp.atomic_add(grid, gi, gj, w)


@wp.kernel
def image_loss(grid: wp.array2d(dtype=wp.float64), target: wp.array2d(dtype=wp.float64),
               loss: wp.array(dtype=wp.float64)):
    i, j = wp.tid()
    r = grid[i, j] - target[i, j]
    wp.atomic_add(loss, 0, r * r)


class Deposition:
    def __init__(self, n=12, seed=3):
        rng = np.random.default_rng(seed)
        self.n = n
        self.x0 = wp.array(rng.uniform(0.15, 0.45, size=(n, 2)), dtype=wp.vec2d)
        self.pos = wp.zeros(n, dtype=wp.vec2d, requires_grad=True)
        self.grid = wp.zeros((G, G), dtype=wp.float64, requires_grad=True)
        self.loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
        self.target = None

    def forward(self, params):
        wp.launch(transport, dim=self.n, inputs=[self.x0, params, wp.float64(T_FLIGHT)], outputs=[self.pos])
        wp.launch(splat, dim=(self.n, G, G), inputs=[self.pos, params, wp.float64(H)], outputs=[self.grid])  # expect: missing_zero
        wp.launch(image_loss, dim=(G, G), inputs=[self.grid, self.target], outputs=[self.loss])
        return self.loss


def make_target():
    d = Deposition()
    d.target = wp.zeros((G, G), dtype=wp.float64)
    d.forward(wp.array([0.6, 0.35, 0.12], dtype=wp.float64))
    return wp.array(d.grid.numpy(), dtype=wp.float64)


def fit(p0, iters, lr=1e-4, verbose=False):
    dep = Deposition()
    dep.target = make_target()
    params = wp.array(p0, dtype=wp.float64, requires_grad=True)
    history = []
    for it in range(iters):
        before = params.numpy().copy()
        tape = wp.Tape()
        with tape:
            loss = dep.forward(params)
        tape.backward(loss)
        g = params.grad.numpy().copy()
        history.append((before, g, float(loss.numpy()[0])))
        if verbose:
            print(f"iter {it}: loss {history[-1][2]:.5f}  params {np.round(before, 4)}")
        params.assign(before - lr * g)
        tape.zero()
        dep.loss.zero_()
    return history, dep.target


def objective(p, target):
    dep = Deposition()
    dep.target = target
    return float(dep.forward(wp.array(p, dtype=wp.float64)).numpy()[0])


def verify():
    history, target = fit(np.array([0.45, 0.45, 0.10]), 2)
    p, g_used, _ = history[1]
    fd = np.zeros(3)
    for i in range(3):
        h = 1e-6
        pp, pm = p.copy(), p.copy()
        pp[i] += h
        pm[i] -= h
        fd[i] = (objective(pp, target) - objective(pm, target)) / (2 * h)
    return g_used, fd


if __name__ == "__main__":
    fit(np.array([0.45, 0.45, 0.10]), 6, verbose=True)
