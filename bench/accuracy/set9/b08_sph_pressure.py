"""A small SPH blob released from rest: gradient of its kinetic energy after a few steps w.r.t. the start positions."""

import numpy as np
import warp as wp

from _sph import H, MASS, POLY6, SPIKY_GRAD, blob, density, kinetic_energy, symplectic_euler, tait_pressure
from _sph_kernels import pressure_force

N = 5
STEPS = 3
DT = 0.01
REST_DENSITY = 25.0
STIFFNESS = 40.0
PARAMS0 = blob(N).ravel().astype(np.float64)


def step(x, v, stiffness):
    """One SPH step; returns the new positions, velocities and the densities used."""
    rho = wp.zeros(N, dtype=float, requires_grad=True)
    p = wp.zeros(N, dtype=float, requires_grad=True)
    f = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    wp.launch(density, dim=(N, N), inputs=[x, H, POLY6, MASS], outputs=[rho])
    wp.launch(tait_pressure, dim=N, inputs=[rho, REST_DENSITY, stiffness], outputs=[p])
    wp.launch(pressure_force, dim=(N, N), inputs=[x, rho, p, H, SPIKY_GRAD, MASS], outputs=[f])
    x1 = wp.empty_like(x)
    v1 = wp.empty_like(v)
    wp.launch(symplectic_euler, dim=N, inputs=[x, v, f, rho, DT], outputs=[x1, v1])
    return x1, v1, rho


def evaluate(p):
    x = wp.array(p.reshape(N, 3).astype(np.float32), dtype=wp.vec3, requires_grad=True)
    x0 = x
    v = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    stiffness = wp.array([STIFFNESS], dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            x, v, _ = step(x, v, stiffness)
        wp.launch(kinetic_energy, dim=N, inputs=[v], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), x0.grad.numpy().ravel().astype(np.float64)


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"kinetic energy {loss:.5f}  |d/dx0| {np.linalg.norm(grad):.5f}")
