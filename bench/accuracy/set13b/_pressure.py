"""Pressure projection for a collocated 2-D smoke grid: divergence, Jacobi
sweeps for the pressure Poisson equation (Neumann walls), gradient subtraction.

The solve is linear and run many times per frame, so the module is built
forward-only to halve compile time.
"""
import warp as wp

wp.set_module_options({"enable_backward": False})  # expect: adjoint_disabled


@wp.kernel
def divergence(vel: wp.array2d(dtype=wp.vec2), div: wp.array2d(dtype=float)):
    i, j = wp.tid()
    nx = vel.shape[0]
    ny = vel.shape[1]
    ur = vel[wp.min(i + 1, nx - 1), j][0]
    ul = vel[wp.max(i - 1, 0), j][0]
    vu = vel[i, wp.min(j + 1, ny - 1)][1]
    vd = vel[i, wp.max(j - 1, 0)][1]
    div[i, j] = 0.5 * (ur - ul + vu - vd)


@wp.kernel
def jacobi(p: wp.array2d(dtype=float), div: wp.array2d(dtype=float), p_out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    nx = p.shape[0]
    ny = p.shape[1]
    s = p[wp.max(i - 1, 0), j] + p[wp.min(i + 1, nx - 1), j] + p[i, wp.max(j - 1, 0)] + p[i, wp.min(j + 1, ny - 1)]
    p_out[i, j] = 0.25 * (s - div[i, j])


@wp.kernel
def subtract_gradient(vel: wp.array2d(dtype=wp.vec2), p: wp.array2d(dtype=float), vel_out: wp.array2d(dtype=wp.vec2)):
    i, j = wp.tid()
    nx = p.shape[0]
    ny = p.shape[1]
    gx = 0.5 * (p[wp.min(i + 1, nx - 1), j] - p[wp.max(i - 1, 0), j])
    gy = 0.5 * (p[i, wp.min(j + 1, ny - 1)] - p[i, wp.max(j - 1, 0)])
    v = vel[i, j] - wp.vec2(gx, gy)
    if i == 0 or j == 0 or i == nx - 1 or j == ny - 1:
        v = wp.vec2(0.0, 0.0)
    vel_out[i, j] = v


def project(vel, sweeps):
    shape = vel.shape
    div = wp.zeros(shape, dtype=float, requires_grad=True)
    wp.launch(divergence, dim=shape, inputs=[vel], outputs=[div])
    p = wp.zeros(shape, dtype=float, requires_grad=True)
    for _ in range(sweeps):
        p_new = wp.zeros(shape, dtype=float, requires_grad=True)
        wp.launch(jacobi, dim=shape, inputs=[p, div], outputs=[p_new])
        p = p_new
    vel_out = wp.zeros_like(vel)
    wp.launch(subtract_gradient, dim=shape, inputs=[vel, p], outputs=[vel_out])
    return vel_out
