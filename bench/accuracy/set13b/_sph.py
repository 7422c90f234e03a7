"""Weakly compressible 2-D SPH building blocks (brute-force neighbour loops).

Poly6 density kernel, spiky pressure gradient, Muller viscosity Laplacian,
symplectic Euler with soft walls of a unit box.
"""
import numpy as np
import warp as wp

H = wp.constant(0.12)          # smoothing length
MASS = wp.constant(0.02)
GRAVITY = wp.constant(wp.vec2(0.0, -9.81))
WALL_K = wp.constant(2.0e3)


@wp.func
def poly6(r2: float):
    h2 = H * H
    if r2 >= h2:
        return 0.0
    d = h2 - r2
    return 4.0 / (wp.pi * H * H * H * H * H * H * H * H) * d * d * d


@wp.func
def spiky_grad_coef(r: float):
    # dW/dr of the spiky kernel, to be multiplied by the unit direction
    if r >= H:
        return 0.0
    d = H - r
    return -30.0 / (wp.pi * H * H * H * H * H) * d * d


@wp.func
def visc_lap(r: float):
    if r >= H:
        return 0.0
    return 40.0 / (wp.pi * H * H * H * H * H) * (H - r)


@wp.kernel
def density(x: wp.array(dtype=wp.vec2), rho: wp.array(dtype=float)):
    i = wp.tid()
    s = float(0.0)
    for j in range(x.shape[0]):
        d = x[i] - x[j]
        s += MASS * poly6(wp.dot(d, d))
    rho[i] = s


@wp.func
def wall_force(p: wp.vec2):
    f = wp.vec2(0.0, 0.0)
    if p[0] < 0.0:
        f += wp.vec2(-WALL_K * p[0], 0.0)
    if p[0] > 1.0:
        f += wp.vec2(-WALL_K * (p[0] - 1.0), 0.0)
    if p[1] < 0.0:
        f += wp.vec2(0.0, -WALL_K * p[1])
    return f


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), acc: wp.array(dtype=wp.vec2), dt: float,
              x_out: wp.array(dtype=wp.vec2), v_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    a = acc[i] + GRAVITY + wall_force(x[i])
    vn = v[i] + dt * a
    v_out[i] = vn
    x_out[i] = x[i] + dt * vn


@wp.kernel
def position_misfit(x: wp.array(dtype=wp.vec2), target: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def block(nx=6, ny=6, spacing=0.06, origin=(0.1, 0.05)):
    gx, gy = np.meshgrid(np.arange(nx), np.arange(ny), indexing="ij")
    pts = np.stack([origin[0] + spacing * gx.ravel(), origin[1] + spacing * gy.ravel()], axis=1)
    return pts.astype(np.float32)
