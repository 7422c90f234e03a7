"""Calibrate the equation-of-state stiffness and viscosity of a 2-D SPH dam break.

A 6 x 6 block of fluid collapses in a box for 40 steps; the final particle
positions are matched to a reference run. Density and force buffers are
allocated once and reused by every step to save memory.
"""
import numpy as np
import warp as wp

import _sph as sph

DT = 2.0e-3
STEPS = 40
REST_RHO = 4.0


@wp.kernel
def pressure_viscosity(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), rho: wp.array(dtype=float),
                       prm: wp.array(dtype=float), acc: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    k = prm[0]
    mu = prm[1]
    p_i = k * (rho[i] - REST_RHO)
    a = wp.vec2(0.0, 0.0)
    for j in range(x.shape[0]):
        if j != i:
            d = x[i] - x[j]
            r = wp.length(d)
            if r < sph.H:
                p_j = k * (rho[j] - REST_RHO)
                a += -sph.MASS * (p_i / (rho[i] * rho[i]) + p_j / (rho[j] * rho[j])) * sph.spiky_grad_coef(r) * (d / r)
                a += mu * sph.MASS / (rho[i] * rho[j]) * sph.visc_lap(r) * (v[j] - v[i])
    acc[i] = a


class DamBreak:
    def __init__(self, prm):
        self.prm = prm
        self.n = 36
        x0 = sph.block()
        self.x = [wp.array(x0, dtype=wp.vec2, requires_grad=True)]
        self.v = [wp.zeros(self.n, dtype=wp.vec2, requires_grad=True)]
        for _ in range(STEPS):
            self.x.append(wp.zeros(self.n, dtype=wp.vec2, requires_grad=True))
            self.v.append(wp.zeros(self.n, dtype=wp.vec2, requires_grad=True))
        self.rho = wp.zeros(self.n, dtype=float, requires_grad=True)
        self.acc = wp.zeros(self.n, dtype=wp.vec2, requires_grad=True)

    def run(self):
        for s in range(STEPS):
            rho = self.rho  # expect: overwrite
            wp.launch(sph.density, dim=self.n, inputs=[self.x[s]], outputs=[rho])
            wp.launch(pressure_viscosity, dim=self.n, inputs=[self.x[s], self.v[s], rho, self.prm], outputs=[self.acc])
            wp.launch(sph.integrate, dim=self.n, inputs=[self.x[s], self.v[s], self.acc, DT],
                      outputs=[self.x[s + 1], self.v[s + 1]])
        return self.x[-1]


TARGET = DamBreak(wp.array([40.0, 0.8], dtype=float)).run()
PARAMS0 = [30.0, 0.5]
FD_EPS = [1e-2, 1e-3]


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    sim = DamBreak(prm)
    tape = wp.Tape()
    with tape:
        xf = sim.run()
        wp.launch(sph.position_misfit, dim=sim.n, inputs=[xf, TARGET], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64).copy()


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(3):
        f, g = evaluate(p)
        print(f"iter {it}: loss {f:.4e}  k={p[0]:.3f} mu={p[1]:.3f}  grad {g}")
        p = p - np.array([1.0, 0.01]) * g / (np.abs(g).max() + 1e-12)
