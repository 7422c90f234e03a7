"""Buoyancy coefficient and source strength of a rising smoke plume (2-D Eulerian fluid).

Stable-fluids style solver on a 24 x 24 collocated grid: semi-Lagrangian
advection of smoke density and velocity, Boussinesq buoyancy, a Gaussian
smoke source above a floor vent, and a pressure projection by Jacobi sweeps
(helper _pressure.py).
The density image after 12 frames is compared with a camera observation.
"""
import numpy as np
import warp as wp

import _pressure

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
def image_misfit(rho: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = rho[i, j] - obs[i, j]
    wp.atomic_add(loss, 0, d * d)


def plume(prm):
    rho = wp.zeros((NX, NY), dtype=float, requires_grad=True)
    vel = wp.zeros((NX, NY), dtype=wp.vec2, requires_grad=True)
    for _ in range(FRAMES):
        rho_new = wp.zeros_like(rho)
        vel_new = wp.zeros_like(vel)
        wp.launch(advect_and_force, dim=(NX, NY), inputs=[rho, vel, prm, DT], outputs=[rho_new, vel_new])
        vel = _pressure.project(vel_new, SWEEPS)
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
