"""Collocated 2-D Eulerian grid operators (semi-Lagrangian advection, Jacobi pressure projection)."""
import numpy as np
import warp as wp

N = 16


@wp.func
def sample(f: wp.array2d(dtype=float), p: wp.vec2):
    x = wp.clamp(p[0], 0.0, float(N - 1) - 0.001)
    y = wp.clamp(p[1], 0.0, float(N - 1) - 0.001)
    i = int(x)
    j = int(y)
    fx = x - float(i)
    fy = y - float(j)
    a = wp.lerp(f[i, j], f[i + 1, j], fx)
    b = wp.lerp(f[i, j + 1], f[i + 1, j + 1], fx)
    return wp.lerp(a, b, fy)


@wp.kernel
def advect(q: wp.array2d(dtype=float), u: wp.array2d(dtype=wp.vec2), dt: float, q_out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    p = wp.vec2(float(i), float(j)) - dt * u[i, j]
    q_out[i, j] = sample(q, p)


@wp.kernel
def divergence(u: wp.array2d(dtype=wp.vec2), div: wp.array2d(dtype=float)):
    i, j = wp.tid()
    if i == 0 or j == 0 or i == N - 1 or j == N - 1:
        div[i, j] = 0.0
        return
    div[i, j] = 0.5 * (u[i + 1, j][0] - u[i - 1, j][0] + u[i, j + 1][1] - u[i, j - 1][1])


@wp.kernel
def jacobi(p: wp.array2d(dtype=float), div: wp.array2d(dtype=float), p_out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    if i == 0 or j == 0 or i == N - 1 or j == N - 1:
        p_out[i, j] = 0.0
        return
    p_out[i, j] = 0.25 * (p[i + 1, j] + p[i - 1, j] + p[i, j + 1] + p[i, j - 1] - div[i, j])


@wp.kernel
def subtract_gradient(u: wp.array2d(dtype=wp.vec2), p: wp.array2d(dtype=float), u_out: wp.array2d(dtype=wp.vec2)):
    i, j = wp.tid()
    if i == 0 or j == 0 or i == N - 1 or j == N - 1:
        u_out[i, j] = u[i, j]
        return
    u_out[i, j] = u[i, j] - 0.5 * wp.vec2(p[i + 1, j] - p[i - 1, j], p[i, j + 1] - p[i, j - 1])


def gaussian_blob(cx=6.0, cy=7.0, s=2.5):
    ii, jj = np.mgrid[0:N, 0:N]
    return np.exp(-((ii - cx) ** 2 + (jj - cy) ** 2) / (2 * s * s)).astype(np.float32)
