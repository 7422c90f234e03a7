"""Identify the sloshing excitation of a shaken SPH tank and the fluid viscosity.

The tank is shaken horizontally with acceleration A sin(omega t); in the
tank frame this is a body force added to the x component of every particle's
acceleration. Particle positions after 40 steps are matched to a reference
run (helper _sph.py).
"""
import numpy as np
import warp as wp

import _sph as sph

DT = 2.0e-3
STEPS = 40
REST_RHO = 4.0
STIFF = 35.0
OMEGA = 40.0


@wp.kernel
def tank_frame_forces(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), rho: wp.array(dtype=float),
                      prm: wp.array(dtype=float), t: float, acc: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    p_i = STIFF * (rho[i] - REST_RHO)
    a = wp.vec2(0.0, 0.0)
    for j in range(x.shape[0]):
        if j != i:
            d = x[i] - x[j]
            r = wp.length(d)
            if r < sph.H:
                p_j = STIFF * (rho[j] - REST_RHO)
                a += -sph.MASS * (p_i / (rho[i] * rho[i]) + p_j / (rho[j] * rho[j])) * sph.spiky_grad_coef(r) * (d / r)
                a += prm[1] * sph.MASS / (rho[i] * rho[j]) * sph.visc_lap(r) * (v[j] - v[i])
    a[0] = a[0] - prm[0] * wp.sin(OMEGA * t)  # expect: component_reassign
    acc[i] = a


N = 36


def shake(prm):
    x = wp.array(sph.block(), dtype=wp.vec2, requires_grad=True)
    v = wp.zeros(N, dtype=wp.vec2, requires_grad=True)
    for s in range(STEPS):
        rho = wp.zeros(N, dtype=float, requires_grad=True)
        acc = wp.zeros(N, dtype=wp.vec2, requires_grad=True)
        x_new = wp.zeros_like(x)
        v_new = wp.zeros_like(v)
        wp.launch(sph.density, dim=N, inputs=[x], outputs=[rho])
        wp.launch(tank_frame_forces, dim=N, inputs=[x, v, rho, prm, s * DT], outputs=[acc])
        wp.launch(sph.integrate, dim=N, inputs=[x, v, acc, DT], outputs=[x_new, v_new])
        x, v = x_new, v_new
    return x


TARGET = shake(wp.array([6.0, 0.8], dtype=float))
PARAMS0 = [4.0, 0.5]
FD_EPS = [1e-2, 1e-2]


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        xf = shake(prm)
        wp.launch(sph.position_misfit, dim=N, inputs=[xf, TARGET], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(3):
        f, g = evaluate(p)
        print(f"iter {it}: loss {f:.4e}  A={p[0]:.3f} mu={p[1]:.3f}  grad {g}")
        p = p - np.array([0.5, 0.05]) * g / (np.abs(g).max() + 1e-12)
