"""Shooting method: find initial velocities that bring a softened N-body cluster to target positions."""

import numpy as np
import warp as wp

NUM_BODIES = 10
STEPS = 25
DT = 0.02
SOFTENING = 0.3


@wp.kernel
def gravity(
    x: wp.array(dtype=wp.vec3),
    mass: wp.array(dtype=float),
    forces: wp.array(dtype=wp.vec3),
):
    i, j = wp.tid()
    d = x[j] - x[i]
    r2 = wp.dot(d, d) + SOFTENING * SOFTENING
    inv_r3 = 1.0 / (r2 * wp.sqrt(r2))
    forces[i] += mass[i] * mass[j] * inv_r3 * d


@wp.kernel
def leapfrog(
    x: wp.array(dtype=wp.vec3),
    v: wp.array(dtype=wp.vec3),
    forces: wp.array(dtype=wp.vec3),
    mass: wp.array(dtype=float),
    dt: float,
    x_out: wp.array(dtype=wp.vec3),
    v_out: wp.array(dtype=wp.vec3),
):
    i = wp.tid()
    v_new = v[i] + dt * forces[i] / mass[i]
    v_out[i] = v_new
    x_out[i] = x[i] + dt * v_new


@wp.kernel
def arrival_error(x: wp.array(dtype=wp.vec3), target: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def integrate(x0, v0, mass, loss, target):
    xs, vs = [x0], [v0]
    for _ in range(STEPS):
        f = wp.zeros(NUM_BODIES, dtype=wp.vec3, requires_grad=True)
        wp.launch(gravity, dim=(NUM_BODIES, NUM_BODIES), inputs=[xs[-1], mass], outputs=[f])
        x1 = wp.zeros_like(x0)
        v1 = wp.zeros_like(v0)
        wp.launch(leapfrog, dim=NUM_BODIES, inputs=[xs[-1], vs[-1], f, mass, DT], outputs=[x1, v1])
        xs.append(x1)
        vs.append(v1)
    wp.launch(arrival_error, dim=NUM_BODIES, inputs=[xs[-1], target], outputs=[loss])
    return xs


def initial_conditions(seed=12):
    rng = np.random.default_rng(seed)
    x = rng.normal(0.0, 1.0, (NUM_BODIES, 3)).astype(np.float32)
    m = rng.uniform(0.5, 1.5, NUM_BODIES).astype(np.float32)
    target = (x + rng.normal(0.0, 0.2, (NUM_BODIES, 3))).astype(np.float32)
    return x, m, target


def main():
    x_np, m_np, t_np = initial_conditions()
    x0 = wp.array(x_np, dtype=wp.vec3, requires_grad=True)
    mass = wp.array(m_np, dtype=float)
    target = wp.array(t_np, dtype=wp.vec3)
    v0 = wp.zeros(NUM_BODIES, dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)

    for it in range(20):
        loss.zero_()
        tape = wp.Tape()
        with tape:
            integrate(x0, v0, mass, loss, target)
        tape.backward(loss)
        if it % 5 == 0:
            print(f"iter {it:2d} loss {loss.numpy()[0]:.5f} |dL/dv0| {np.linalg.norm(v0.grad.numpy()):.4f}")
        v0.assign(v0.numpy() - 0.1 * v0.grad.numpy())
        tape.zero()

    print("initial velocities\n", np.round(v0.numpy(), 3))


if __name__ == "__main__":
    main()
