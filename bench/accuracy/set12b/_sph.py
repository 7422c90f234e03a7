"""Weakly compressible SPH block (2-D in the z = 0 plane) on Warp hash grids."""
import numpy as np
import warp as wp

H = 0.25
MASS = 0.01
RHO0 = 0.9
POLY6 = 4.0 / (np.pi * H**8)
SPIKY = -30.0 / (np.pi * H**5)


@wp.func
def poly6(r2: float):
    q = H * H - r2
    return POLY6 * q * q * q


@wp.kernel
def compute_density(grid: wp.uint64, x: wp.array(dtype=wp.vec3), rho: wp.array(dtype=float)):
    i = wp.tid()
    xi = x[i]
    s = float(0.0)
    neighbors = wp.hash_grid_query(grid, xi, H)
    for j in neighbors:
        d = xi - x[j]
        r2 = wp.dot(d, d)
        if r2 < H * H:
            s += MASS * poly6(r2)
    rho[i] = s


@wp.kernel
def compute_forces(grid: wp.uint64, x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3),
                   rho: wp.array(dtype=float), params: wp.array(dtype=float), f: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    xi = x[i]
    pi = params[0] * (rho[i] - RHO0)
    acc = wp.vec3()
    neighbors = wp.hash_grid_query(grid, xi, H)
    for j in neighbors:
        if j != i:
            d = xi - x[j]
            r = wp.length(d)
            if r < H:
                pj = params[0] * (rho[j] - RHO0)
                q = H - r
                acc -= MASS * (pi + pj) / (2.0 * rho[j]) * SPIKY * q * q * d / r
                acc += params[1] * MASS * (v[j] - v[i]) / rho[j] * q
    f[i] = acc


@wp.kernel
def advance(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3),
            rho: wp.array(dtype=float), dt: float, x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v1 = v[i] + dt * f[i] / rho[i]
    v_out[i] = v1
    x_out[i] = x[i] + dt * v1


@wp.kernel
def spread_loss(x: wp.array(dtype=wp.vec3), w: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    c = x[i] - wp.vec3(0.15, 0.15, 0.0)
    wp.atomic_add(loss, 0, w[i] * wp.dot(c, c))


class Block:
    def __init__(self, side=4, spacing=0.1, dt=0.004):
        g = np.arange(side) * spacing
        xx, yy = np.meshgrid(g, g)
        pos = np.stack([xx.ravel(), yy.ravel(), np.zeros(side * side)], 1)
        pos += 0.01 * np.sin(np.arange(side * side))[:, None] * np.array([1.0, 0.5, 0.0])
        self.pos_np = pos.astype(np.float32)
        self.n = side * side
        self.dt = dt
        self.weights = wp.array(np.linspace(0.5, 1.5, self.n).astype(np.float32), dtype=float)
        self.grids = []

    def initial_state(self):
        return (wp.array(self.pos_np, dtype=wp.vec3, requires_grad=True),
                wp.zeros(self.n, dtype=wp.vec3, requires_grad=True))

    def new_grid(self, x):
        grid = wp.HashGrid(8, 8, 1)
        grid.build(x, H)
        self.grids.append(grid)
        return grid

    def step(self, params, x, v):
        grid = self.new_grid(x)
        rho = wp.zeros(self.n, dtype=float, requires_grad=True)
        f = wp.zeros(self.n, dtype=wp.vec3, requires_grad=True)
        x_out = wp.zeros_like(x)
        v_out = wp.zeros_like(v)
        wp.launch(compute_density, dim=self.n, inputs=[grid.id, x], outputs=[rho])
        wp.launch(compute_forces, dim=self.n, inputs=[grid.id, x, v, rho, params], outputs=[f])
        wp.launch(advance, dim=self.n, inputs=[x, v, f, rho, self.dt], outputs=[x_out, v_out])
        return x_out, v_out

    def loss(self, x, loss):
        wp.launch(spread_loss, dim=self.n, inputs=[x, self.weights], outputs=[loss])
