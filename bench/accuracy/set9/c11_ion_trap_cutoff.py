# correct: pair energy skips the self pair with a real branch, and the wp.where cutoff inside it only sees r > 0
"""Ions in a harmonic trap: gradient of the shifted, cut-off Coulomb + trap energy w.r.t. the ion positions."""

import numpy as np
import warp as wp

N = 4
CHARGES = np.array([1.0, 1.0, 2.0, 1.0], dtype=np.float32)
CUTOFF = 3.0
TRAP = wp.constant(wp.vec3(1.0, 1.5, 4.0))
PARAMS0 = np.array(
    [[0.6, 0.1, 0.0], [-0.5, 0.3, 0.1], [0.0, -0.7, -0.1], [0.1, 0.6, 0.3]], dtype=np.float64
).ravel()


@wp.kernel
def coulomb(x: wp.array(dtype=wp.vec3), q: wp.array(dtype=float), energy: wp.array(dtype=float)):
    i, j = wp.tid()
    if i != j:
        d = x[i] - x[j]
        r = wp.sqrt(wp.dot(d, d))
        phi = wp.where(r < CUTOFF, 1.0 / r - 1.0 / CUTOFF, 0.0)
        wp.atomic_add(energy, 0, 0.5 * q[i] * q[j] * phi)


@wp.kernel
def trap(x: wp.array(dtype=wp.vec3), energy: wp.array(dtype=float)):
    i = wp.tid()
    y = wp.cw_mul(TRAP, x[i])
    wp.atomic_add(energy, 0, 0.5 * wp.dot(y, x[i]))


def evaluate(p):
    x = wp.array(p.reshape(N, 3).astype(np.float32), dtype=wp.vec3, requires_grad=True)
    q = wp.array(CHARGES, dtype=float)
    energy = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(coulomb, dim=(N, N), inputs=[x, q], outputs=[energy])
        wp.launch(trap, dim=N, inputs=[x], outputs=[energy])
    tape.backward(energy)
    return float(energy.numpy()[0]), x.grad.numpy().ravel().astype(np.float64)


if __name__ == "__main__":
    e, g = evaluate(PARAMS0)
    print(f"energy {e:.5f}  max |force| {np.abs(g).max():.5f}")
