# correct: all-pairs soft repulsion including the i == j diagonal, but the distance uses wp.length, whose adjoint is guarded at zero
import numpy as np
import warp as wp

SIGMA = 0.25


@wp.kernel
def coverage_energy(pos: wp.array(dtype=wp.vec3), sigma: float, energy: wp.array(dtype=float)):
    i, j = wp.tid()
    r = wp.length(pos[i] - pos[j])
    wp.atomic_add(energy, 0, 0.5 / (1.0 + (r / sigma) * (r / sigma)))


@wp.kernel
def stay_on_sphere(pos: wp.array(dtype=wp.vec3), energy: wp.array(dtype=float)):
    i = wp.tid()
    s = wp.dot(pos[i], pos[i]) - 1.0
    wp.atomic_add(energy, 0, 4.0 * s * s)


rng = np.random.default_rng(37)
n = 9
p = rng.normal(size=(n, 3))
p /= np.linalg.norm(p, axis=1, keepdims=True)
pos_np = (1.05 * p).astype(np.float32)
pos = wp.array(pos_np, dtype=wp.vec3, requires_grad=True)
energy = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(coverage_energy, dim=(n, n), inputs=[pos, SIGMA], outputs=[energy])
    wp.launch(stay_on_sphere, dim=n, inputs=[pos], outputs=[energy])
tape.backward(energy)

energy_value = float(energy.numpy()[0])
pos_grad = pos.grad.numpy().copy()
print("energy", energy_value, "grad norm", np.linalg.norm(pos_grad))
