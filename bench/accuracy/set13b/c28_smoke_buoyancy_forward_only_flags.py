# correct: smoke-plume buoyancy fit with a differentiable Jacobi projection; only the integer wall-flag kernel is built with enable_backward=False
"""Buoyancy coefficient and source strength of a rising smoke plume (2-D Eulerian fluid).

Stable-fluids style solver on a 24 x 24 collocated grid: semi-Lagrangian
advection of smoke density and velocity, Boussinesq buoyancy, a Gaussian
smoke source above a floor vent, and a pressure projection by Jacobi sweeps
(wall cells flagged once by a forward-only integer kernel).
The density image after 12 frames is compared with a camera observation.
"""
import numpy as np
import warp as wp


NX = NY = 24
FRAMES = 12
SWEEPS = 20
DT = 0.5
VENT_X = 11.5
VENT_Y = 4.0


@wp.func
def sample_f(f: wp.array2d(dtype=float), x: float, y: float):
    x = wp.clamp(x, 0.0, float(NX - 1) - 1.0e-3)
    y = wp.clamp(y, 0.0, float(NY - 1) - 1.0e-3)
    i = int(x)
    j = int(y)
    fx = x - float(i)
    fy = y - float(j)
    return wp.lerp(wp.lerp(f[i, j], f[i + 1, j], fx), wp.lerp(f[i, j + 1], f[i + 1, j + 1], fx), fy)


@wp.func
def sample_v(f: wp.array2d(dtype=wp.vec2), x: float, y: float):
    x = wp.clamp(x, 0.0, float(NX - 1) - 1.0e-3)
    y = wp.clamp(y, 0.0, float(NY - 1) - 1.0e-3)
    i = int(x)
    j = int(y)
    fx = x - float(i)
    fy = y - float(j)
    return wp.lerp(wp.lerp(f[i, j], f[i + 1, j], fx), wp.lerp(f[i, j + 1], f[i + 1, j + 1], fx), fy)


@wp.kernel
def advect_and_force(rho: wp.array2d(dtype=float), vel: wp.array2d(dtype=wp.vec2), prm: wp.array(dtype=float),
                     dt: float, rho_out: wp.array2d(dtype=float), vel_out: wp.array2d(dtype=wp.vec2)):
    i, j = wp.tid()
    u = vel[i, j]
    x = float(i) - dt * u[0]
    y = float(j) - dt * u[1]
    dx = float(i) - VENT_X
    dy = float(j) - VENT_Y
    r = sample_f(rho, x, y) + dt * prm[1] * wp.exp(-(dx * dx + dy * dy) / 4.0)
    v = sample_v(vel, x, y)
    rho_out[i, j] = r
    vel_out[i, j] = v + wp.vec2(0.0, dt * prm[0] * r)


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


@wp.kernel(enable_backward=False)
def wall_flags(flags: wp.array2d(dtype=wp.int32)):
    # 1 on the no-slip box walls, 0 in the fluid; integer geometry, nothing to differentiate
    i, j = wp.tid()
    nx = flags.shape[0]
    ny = flags.shape[1]
    flags[i, j] = wp.where(i == 0 or j == 0 or i == nx - 1 or j == ny - 1, 1, 0)


@wp.kernel
def subtract_gradient(vel: wp.array2d(dtype=wp.vec2), p: wp.array2d(dtype=float), flags: wp.array2d(dtype=wp.int32),
                      vel_out: wp.array2d(dtype=wp.vec2)):
    i, j = wp.tid()
    nx = p.shape[0]
    ny = p.shape[1]
    gx = 0.5 * (p[wp.min(i + 1, nx - 1), j] - p[wp.max(i - 1, 0), j])
    gy = 0.5 * (p[i, wp.min(j + 1, ny - 1)] - p[i, wp.max(j - 1, 0)])
    v = vel[i, j] - wp.vec2(gx, gy)
    if flags[i, j] == 1:
        v = wp.vec2(0.0, 0.0)
    vel_out[i, j] = v


def project(vel, sweeps, flags):
    shape = vel.shape
    div = wp.zeros(shape, dtype=float, requires_grad=True)
    wp.launch(divergence, dim=shape, inputs=[vel], outputs=[div])
    p = wp.zeros(shape, dtype=float, requires_grad=True)
    for _ in range(sweeps):
        p_new = wp.zeros(shape, dtype=float, requires_grad=True)
        wp.launch(jacobi, dim=shape, inputs=[p, div], outputs=[p_new])
        p = p_new
    vel_out = wp.zeros_like(vel)
    wp.launch(subtract_gradient, dim=shape, inputs=[vel, p, flags], outputs=[vel_out])
    return vel_out


@wp.kernel
def image_misfit(rho: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = rho[i, j] - obs[i, j]
    wp.atomic_add(loss, 0, d * d)


FLAGS = wp.zeros((NX, NY), dtype=wp.int32)
wp.launch(wall_flags, dim=(NX, NY), inputs=[], outputs=[FLAGS])


def plume(prm):
    rho = wp.zeros((NX, NY), dtype=float, requires_grad=True)
    vel = wp.zeros((NX, NY), dtype=wp.vec2, requires_grad=True)
    for _ in range(FRAMES):
        rho_new = wp.zeros_like(rho)
        vel_new = wp.zeros_like(vel)
        wp.launch(advect_and_force, dim=(NX, NY), inputs=[rho, vel, prm, DT], outputs=[rho_new, vel_new])
        vel = project(vel_new, SWEEPS, FLAGS)
        rho = rho_new
    return rho


OBS = wp.clone(plume(wp.array([0.25, 0.8], dtype=float)))
PARAMS0 = [0.18, 0.6]
FD_EPS = 1e-3


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        rho = plume(prm)
        wp.launch(image_misfit, dim=(NX, NY), inputs=[rho, OBS], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(3):
        f, g = evaluate(p)
        print(f"iter {it}: image misfit {f:.4e}  buoyancy {p[0]:.4f} source {p[1]:.4f}  grad {g}")
        p = p - 0.02 * g / (np.abs(g).max() + 1e-12)
