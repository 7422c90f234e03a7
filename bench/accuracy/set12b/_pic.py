"""Particle-in-cell transfers (bilinear P2G / G2P) on a unit-square grid."""
import numpy as np
import warp as wp

NG = 8
DX = 1.0 / NG


@wp.func
def cell_and_frac(p: wp.vec2):
    g = p / DX - wp.vec2(0.5, 0.5)
    i = int(wp.floor(g[0]))
    j = int(wp.floor(g[1]))
    return i, j, wp.vec2(g[0] - float(i), g[1] - float(j))


@wp.kernel
def p2g(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), mass: float,
        grid_m: wp.array2d(dtype=float), grid_mv: wp.array2d(dtype=wp.vec2)):
    p = wp.tid()
    i, j, f = cell_and_frac(x[p])
    for a in range(2):
        for b in range(2):
            w = wp.where(a == 0, 1.0 - f[0], f[0]) * wp.where(b == 0, 1.0 - f[1], f[1])
            wp.atomic_add(grid_m, i + a, j + b, w * mass)
            wp.atomic_add(grid_mv, i + a, j + b, w * mass * v[p])


@wp.kernel
def grid_velocity(grid_m: wp.array2d(dtype=float), grid_mv: wp.array2d(dtype=wp.vec2),
                  grid_v: wp.array2d(dtype=wp.vec2)):
    i, j = wp.tid()
    grid_v[i, j] = grid_mv[i, j] / (grid_m[i, j] + 1.0e-3)


@wp.kernel
def g2p(x: wp.array(dtype=wp.vec2), grid_v: wp.array2d(dtype=wp.vec2), v_out: wp.array(dtype=wp.vec2)):
    p = wp.tid()
    i, j, f = cell_and_frac(x[p])
    acc = wp.vec2()
    for a in range(2):
        for b in range(2):
            w = wp.where(a == 0, 1.0 - f[0], f[0]) * wp.where(b == 0, 1.0 - f[1], f[1])
            acc += w * grid_v[i + a, j + b]
    v_out[p] = acc


def sample_particles(n=48, seed=3):
    rng = np.random.default_rng(seed)
    return (0.15 + 0.7 * rng.random((n, 2))).astype(np.float32)
