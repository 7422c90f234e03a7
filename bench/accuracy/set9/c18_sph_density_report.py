# correct: the density report reuses the taped rho buffer, but only after tape.backward() has consumed it
"""One SPH step of a compressed blob with a density report for the log; gradient of the kinetic energy
w.r.t. the start positions."""

import numpy as np
import warp as wp

from _sph import H, MASS, POLY6, SPIKY_GRAD, blob, density, kinetic_energy, pressure_force, symplectic_euler, tait_pressure

N = 5
DT = 0.05
REST_DENSITY = 25.0
STIFFNESS = 100.0
PARAMS0 = (0.7 * blob(N, seed=8)).ravel().astype(np.float64)  # a compressed blob


def measure_density(x, rho):
    """Per-particle density at positions x, written into rho."""
    rho.zero_()
    wp.launch(density, dim=(N, N), inputs=[x, H, POLY6, MASS], outputs=[rho])
    return rho.numpy()


def evaluate(p):
    x0 = wp.array(p.reshape(N, 3).astype(np.float32), dtype=wp.vec3, requires_grad=True)
    v0 = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    stiffness = wp.array([STIFFNESS], dtype=float, requires_grad=True)
    rho = wp.zeros(N, dtype=float, requires_grad=True)
    pressure = wp.zeros(N, dtype=float, requires_grad=True)
    f = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    x1 = wp.zeros_like(x0)
    v1 = wp.zeros_like(v0)
    energy = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(density, dim=(N, N), inputs=[x0, H, POLY6, MASS], outputs=[rho])
        wp.launch(tait_pressure, dim=N, inputs=[rho, REST_DENSITY, stiffness], outputs=[pressure])
        wp.launch(pressure_force, dim=(N, N), inputs=[x0, rho, pressure, H, SPIKY_GRAD, MASS], outputs=[f])
        wp.launch(symplectic_euler, dim=N, inputs=[x0, v0, f, rho, DT], outputs=[x1, v1])
        wp.launch(kinetic_energy, dim=N, inputs=[v1], outputs=[energy])
    tape.backward(energy)
    rho_after = measure_density(x1, rho)
    print(f"mean density after the step: {rho_after.mean():.3f}")
    return float(energy.numpy()[0]), x0.grad.numpy().ravel().astype(np.float64)


if __name__ == "__main__":
    e, g = evaluate(PARAMS0)
    print(f"kinetic energy {e:.5f}  |d/dx0| {np.linalg.norm(g):.5f}")
