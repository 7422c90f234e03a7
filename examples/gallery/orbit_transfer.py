"""Satellite orbit propagation: sensitivity of the final miss distance to the
gravitational parameter. The acceleration field is kept in one work buffer whose
gradient we also want to inspect after the backward pass."""
import numpy as np
import warp as wp

SATS = 3
STEPS = 10
DT = 0.05


@wp.kernel
def gravity(pos: wp.array(dtype=wp.vec3d), mu: wp.array(dtype=wp.float64), accel: wp.array(dtype=wp.vec3d)):
    s = wp.tid()
    p = pos[s]
    r = wp.length(p)
    accel[s] = -mu[0] * p / (r * r * r)


@wp.kernel
def kick_drift(
    pos: wp.array(dtype=wp.vec3d),
    vel: wp.array(dtype=wp.vec3d),
    accel: wp.array(dtype=wp.vec3d),
    dt: wp.float64,
    pos_out: wp.array(dtype=wp.vec3d),
    vel_out: wp.array(dtype=wp.vec3d),
):
    s = wp.tid()
    v = vel[s] + dt * accel[s]
    vel_out[s] = v
    pos_out[s] = pos[s] + dt * v


@wp.kernel
def miss(pos: wp.array(dtype=wp.vec3d), goal: wp.array(dtype=wp.vec3d), out: wp.array(dtype=wp.float64)):
    s = wp.tid()
    d = pos[s] - goal[s]
    wp.atomic_add(out, 0, wp.dot(d, d))


def propagate(mu_value):
    mu = wp.array([mu_value], dtype=wp.float64, requires_grad=True)
    pos = wp.array(np.array([[1.0, 0.0, 0.0], [0.0, 1.2, 0.0], [0.8, 0.0, 0.6]]), dtype=wp.vec3d, requires_grad=True)
    vel = wp.array(np.array([[0.0, 1.0, 0.0], [-0.9, 0.0, 0.1], [0.0, 1.0, 0.0]]), dtype=wp.vec3d, requires_grad=True)
    goal = wp.array(np.array([[0.5, 0.8, 0.0], [-0.6, 1.0, 0.0], [0.4, 0.7, 0.5]]), dtype=wp.vec3d)
    accel = wp.zeros(SATS, dtype=wp.vec3d, requires_grad=True, retain_grad=True)  # expect: TW203
    out = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            wp.launch(gravity, dim=SATS, inputs=[pos, mu], outputs=[accel])  # note: TW101
            pos_next = wp.empty_like(pos)
            vel_next = wp.empty_like(vel)
            wp.launch(kick_drift, dim=SATS, inputs=[pos, vel, accel, DT], outputs=[pos_next, vel_next])
            pos, vel = pos_next, vel_next
        wp.launch(miss, dim=SATS, inputs=[pos, goal], outputs=[out])
    return tape, out, mu, accel


if __name__ == "__main__":
    wp.init()
    tape, out, mu, accel = propagate(1.0)
    tape.backward(out)
    print("miss", out.numpy()[0])
    print("d miss / d mu", mu.grad.numpy()[0])
    print("acceleration sensitivity\n", accel.grad.numpy())
