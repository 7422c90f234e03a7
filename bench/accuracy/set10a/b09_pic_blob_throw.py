"""Throw a blob of PIC (particle-in-cell) material so that its centre of mass
lands on a target; the initial velocity is optimised with plain gradient
descent. Particles splat mass and momentum to a background grid (P2G),
grid velocities get gravity and a floor, particles gather them back (G2P).
Grid buffers for every substep are allocated once and recycled across
optimiser iterations.
"""
import numpy as np
import warp as wp

GRID = 16
DX = 1.0 / GRID
DT = 0.01
STEPS = 12


@wp.func
def bilinear(p: wp.vec2, di: int, dj: int):
    g = p / DX
    i0 = wp.clamp(int(wp.floor(g[0])), 0, GRID - 2)
    j0 = wp.clamp(int(wp.floor(g[1])), 0, GRID - 2)
    fx = g[0] - float(i0)
    fy = g[1] - float(j0)
    wx = wp.where(di == 0, 1.0 - fx, fx)
    wy = wp.where(dj == 0, 1.0 - fy, fy)
    return wx * wy


@wp.kernel
def p2g(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), pmass: float,
        grid_m: wp.array2d(dtype=float), grid_mv: wp.array2d(dtype=wp.vec2)):
    p = wp.tid()
    g = x[p] / DX
    i0 = wp.clamp(int(wp.floor(g[0])), 0, GRID - 2)
    j0 = wp.clamp(int(wp.floor(g[1])), 0, GRID - 2)
    for di in range(2):
        for dj in range(2):
            w = bilinear(x[p], di, dj)
            wp.atomic_add(grid_m, i0 + di, j0 + dj, w * pmass)
            wp.atomic_add(grid_mv, i0 + di, j0 + dj, w * pmass * v[p])


@wp.kernel
def grid_update(grid_m: wp.array2d(dtype=float), grid_mv: wp.array2d(dtype=wp.vec2), dt: float,
                grid_v: wp.array2d(dtype=wp.vec2)):
    i, j = wp.tid()
    m = grid_m[i, j]
    vel = wp.vec2(0.0, 0.0)
    if m > 1e-8:
        vel = grid_mv[i, j] / m + dt * wp.vec2(0.0, -9.81)
    if j < 2:
        vel = wp.vec2(vel[0], wp.max(vel[1], 0.0))
    grid_v[i, j] = vel


@wp.kernel
def g2p(x: wp.array(dtype=wp.vec2), grid_v: wp.array2d(dtype=wp.vec2), dt: float,
        x_out: wp.array(dtype=wp.vec2), v_out: wp.array(dtype=wp.vec2)):
    p = wp.tid()
    g = x[p] / DX
    i0 = wp.clamp(int(wp.floor(g[0])), 0, GRID - 2)
    j0 = wp.clamp(int(wp.floor(g[1])), 0, GRID - 2)
    vel = wp.vec2(0.0, 0.0)
    for di in range(2):
        for dj in range(2):
            vel += bilinear(x[p], di, dj) * grid_v[i0 + di, j0 + dj]
    v_out[p] = vel
    x_out[p] = x[p] + dt * vel


@wp.kernel
def com_loss(x: wp.array(dtype=wp.vec2), target: wp.vec2, loss: wp.array(dtype=float)):
    p = wp.tid()
    n = float(x.shape[0])
    d = x[p] - target
    wp.atomic_add(loss, 0, wp.dot(d, d) / n)


class BlobThrow:
    def __init__(self):
        rng = np.random.default_rng(7)
        self.x0 = (np.array([0.3, 0.45]) + rng.uniform(-0.06, 0.06, size=(20, 2))).astype(np.float32)
        self.n = len(self.x0)
        self.pmass = 1.0 / self.n
        self.grid_m = [wp.zeros((GRID, GRID), dtype=float, requires_grad=True) for _ in range(STEPS)]
        self.grid_mv = [wp.zeros((GRID, GRID), dtype=wp.vec2, requires_grad=True) for _ in range(STEPS)]
        self.grid_v = [wp.zeros((GRID, GRID), dtype=wp.vec2, requires_grad=True) for _ in range(STEPS)]
        self.target = wp.vec2(0.55, 0.35)

    def clear_grids(self):
        for s in range(STEPS):
            self.grid_m[s].zero_()
            self.grid_m[s].zero_()  # expect: missing_zero

    def forward(self, v0, loss):
        self.clear_grids()
        x = wp.array(self.x0, dtype=wp.vec2, requires_grad=True)
        v = wp.zeros(self.n, dtype=wp.vec2, requires_grad=True)
        wp.launch(broadcast_velocity, dim=self.n, inputs=[v0], outputs=[v])
        for s in range(STEPS):
            wp.launch(p2g, dim=self.n, inputs=[x, v, self.pmass], outputs=[self.grid_m[s], self.grid_mv[s]])
            wp.launch(grid_update, dim=(GRID, GRID), inputs=[self.grid_m[s], self.grid_mv[s], DT],
                      outputs=[self.grid_v[s]])
            x1, v1 = wp.empty_like(x), wp.empty_like(v)
            wp.launch(g2p, dim=self.n, inputs=[x, self.grid_v[s], DT], outputs=[x1, v1])
            x, v = x1, v1
        wp.launch(com_loss, dim=self.n, inputs=[x, self.target], outputs=[loss])

    def loss_and_grad(self, v0_np):
        v0 = wp.array(np.asarray(v0_np, dtype=np.float32), dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            self.forward(v0, loss)
        tape.backward(loss)
        g = v0.grad.numpy().copy()
        tape.zero()
        return float(loss.numpy()[0]), g


@wp.kernel
def broadcast_velocity(v0: wp.array(dtype=float), v: wp.array(dtype=wp.vec2)):
    v[wp.tid()] = wp.vec2(v0[0], v0[1])


def verify():
    """AD: gradient used by the 2nd descent step; FD: objective evaluated on a
    fresh simulator (clean grids) at the same velocity."""
    sim = BlobThrow()
    p = np.array([1.2, 0.8])
    for it in range(2):
        l, g = sim.loss_and_grad(p)
        p_used = p.copy()
        p = p - 0.5 * g
    eps = 1e-3
    fd = np.zeros(2)
    for i in range(2):
        e = np.zeros(2)
        e[i] = eps
        fd[i] = (BlobThrow().loss_and_grad(p_used + e)[0] - BlobThrow().loss_and_grad(p_used - e)[0]) / (2 * eps)
    return g, fd


if __name__ == "__main__":
    sim = BlobThrow()
    p = np.array([1.2, 0.8])
    for it in range(4):
        l, g = sim.loss_and_grad(p)
        print(f"iter {it}: loss {l:.5f} v0 {p} grad {g}")
        p = p - 0.5 * g
