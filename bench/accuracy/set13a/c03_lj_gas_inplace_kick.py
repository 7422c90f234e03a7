# correct: the velocity kick updates v in place with +=, but the kick is linear in v with a force read from another array, and positions go to a fresh array every step.
"""Periodic LJ fluid (27 atoms at reduced density 0.6): temperature after a short
leapfrog run as a function of (epsilon, sigma) -- the derivative that tells how
sensitive the equilibration temperature is to the force field.

The kick adds dt * f to the velocities in place; the drift writes new positions.
"""
import numpy as np
import warp as wp

from _lj import lj_forces_pbc

N_SIDE = 3
N = N_SIDE ** 3
BOX = float((N / 0.6) ** (1.0 / 3.0))
RC = 2.5
DT = 0.004
N_STEPS = 25


@wp.kernel
def kick(f: wp.array(dtype=wp.vec3), dt: float, v: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v[i] += dt * f[i]


@wp.kernel
def drift(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), dt: float, x_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x_out[i] = x[i] + dt * v[i]


@wp.kernel
def kinetic_temperature(v: wp.array(dtype=wp.vec3), T: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(T, 0, wp.dot(v[i], v[i]) / (3.0 * float(v.shape[0])))


def integrate(x, v, ff):
    f = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    wp.launch(lj_forces_pbc, dim=N, inputs=[x, ff, BOX, RC], outputs=[f])
    wp.launch(kick, dim=N, inputs=[f, DT], outputs=[v])
    x_out = wp.empty_like(x)
    wp.launch(drift, dim=N, inputs=[x, v, DT], outputs=[x_out])
    return x_out, v


rng = np.random.default_rng(5)
g = (np.arange(N_SIDE) + 0.5) * BOX / N_SIDE
X0 = np.array(np.meshgrid(g, g, g, indexing="ij")).reshape(3, -1).T
X0 = (X0 + 0.08 * rng.standard_normal(X0.shape)).astype(np.float32)
V0 = rng.standard_normal(X0.shape).astype(np.float32)
V0 -= V0.mean(axis=0)
PARAMS0 = np.array([1.0, 1.0])
FD_EPS = 1e-3


def evaluate(p):
    ff = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(X0, dtype=wp.vec3, requires_grad=True)
    v = wp.array(V0, dtype=wp.vec3, requires_grad=True)
    T = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(N_STEPS):
            x, v = integrate(x, v, ff)
        wp.launch(kinetic_temperature, dim=N, inputs=[v], outputs=[T])
    tape.backward(T)
    return float(T.numpy()[0]), ff.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    T, g = evaluate(PARAMS0)
    print(f"T after {N_STEPS} steps = {T:.4f}; dT/d(eps, sigma) = {g}")
