# correct: SPH Tait-EOS calibration whose pressure buffers are made with zeros_like from the requires_grad densities
"""Fit Tait equation-of-state stiffness and artificial viscosity of a 2-D SPH column.

A fluid column slumps under gravity; per step the density is summed, the
Tait EOS p = B ((rho / rho0)^7 - 1) gives the pressure, and pressure plus
viscous accelerations move the particles. The final free-surface particle
heights are matched to a reference run.
"""
import numpy as np
import warp as wp

import _sph as sph

DT = 2.0e-3
STEPS = 30
RHO0 = 4.2


@wp.kernel
def tait_eos(rho: wp.array(dtype=float), prm: wp.array(dtype=float), p: wp.array(dtype=float)):
    i = wp.tid()
    r = rho[i] / RHO0
    p[i] = prm[0] * (r * r * r * r * r * r * r - 1.0)


@wp.kernel
def momentum(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), rho: wp.array(dtype=float),
             p: wp.array(dtype=float), prm: wp.array(dtype=float), acc: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    a = wp.vec2(0.0, 0.0)
    for j in range(x.shape[0]):
        if j != i:
            d = x[i] - x[j]
            r = wp.length(d)
            if r < sph.H:
                a += -sph.MASS * (p[i] / (rho[i] * rho[i]) + p[j] / (rho[j] * rho[j])) * sph.spiky_grad_coef(r) * (d / r)
                a += prm[1] * sph.MASS / (rho[i] * rho[j]) * sph.visc_lap(r) * (v[j] - v[i])
    acc[i] = a


@wp.kernel
def surface_height_misfit(x: wp.array(dtype=wp.vec2), top: wp.array(dtype=wp.int32), target: wp.array(dtype=float),
                          loss: wp.array(dtype=float)):
    k = wp.tid()
    d = x[top[k]][1] - target[k]
    wp.atomic_add(loss, 0, d * d)


N = 36
TOP = wp.array(np.arange(5, N, 6), dtype=wp.int32)   # top particle of every column of the block


def make_state():
    rho = [wp.zeros(N, dtype=float, requires_grad=True) for _ in range(STEPS)]
    return {
        "x": [wp.array(sph.block(), dtype=wp.vec2, requires_grad=True)]
        + [wp.zeros(N, dtype=wp.vec2, requires_grad=True) for _ in range(STEPS)],
        "v": [wp.zeros(N, dtype=wp.vec2, requires_grad=True) for _ in range(STEPS + 1)],
        "rho": rho,
        "p": [wp.zeros_like(r) for r in rho],
        "acc": [wp.zeros(N, dtype=wp.vec2, requires_grad=True) for _ in range(STEPS)],
    }


def slump(prm):
    st = make_state()
    x, v = st["x"], st["v"]
    for s in range(STEPS):
        wp.launch(sph.density, dim=N, inputs=[x[s]], outputs=[st["rho"][s]])
        wp.launch(tait_eos, dim=N, inputs=[st["rho"][s], prm], outputs=[st["p"][s]])
        wp.launch(momentum, dim=N, inputs=[x[s], v[s], st["rho"][s], st["p"][s], prm], outputs=[st["acc"][s]])
        wp.launch(sph.integrate, dim=N, inputs=[x[s], v[s], st["acc"][s], DT], outputs=[x[s + 1], v[s + 1]])
    return x[-1]


TARGET = wp.array(slump(wp.array([3.0, 0.6], dtype=float)).numpy()[TOP.numpy(), 1], dtype=float)
PARAMS0 = [2.0, 0.3]
FD_EPS = [1e-2, 1e-3]


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        xf = slump(prm)
        wp.launch(surface_height_misfit, dim=TOP.shape[0], inputs=[xf, TOP, TARGET], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(3):
        f, g = evaluate(p)
        print(f"iter {it}: loss {f:.4e}  B={p[0]:.3f} visc={p[1]:.3f}  grad {g}")
        p = p - 0.05 * g / (np.abs(g).max() + 1e-12)
