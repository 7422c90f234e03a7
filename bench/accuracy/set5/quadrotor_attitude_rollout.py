"""Tune constant body rates of three quadrotors so their thrust axes end up pointing at targets."""
import numpy as np
import warp as wp

NDRONES = 3


@wp.kernel
def integrate_attitude(q: wp.array(dtype=wp.quat), omega: wp.array(dtype=wp.vec3), dt: wp.float32,
                       q_out: wp.array(dtype=wp.quat)):
    i = wp.tid()
    w = omega[i]
    dq = wp.quat(w[0], w[1], w[2], 0.0) * q[i]
    q_out[i] = wp.normalize(q[i] + dq * (0.5 * dt))


@wp.kernel
def pointing_error(q: wp.array(dtype=wp.quat), targets: wp.array(dtype=wp.vec3), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    axis = wp.quat_rotate(q[i], wp.vec3(0.0, 0.0, 1.0))
    wp.atomic_add(loss, 0, wp.length_sq(axis - targets[i]))


TARGETS = np.array([[0.5, 0.0, 0.866], [0.0, 0.6, 0.8], [-0.28, -0.28, 0.92]], dtype=np.float32)


def simulate(omega, steps=16, dt=0.1):
    states = [wp.zeros(NDRONES, dtype=wp.quat, requires_grad=True) for _ in range(2)]  # expect: overwrite
    states[0].assign(np.tile(np.array([0.0, 0.0, 0.0, 1.0], dtype=np.float32), (NDRONES, 1)))
    for t in range(steps):
        q_in = states[t % len(states)]
        q_out = states[(t + 1) % len(states)]
        wp.launch(integrate_attitude, dim=NDRONES, inputs=[q_in, omega, dt], outputs=[q_out])
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    targets = wp.array(TARGETS, dtype=wp.vec3)
    wp.launch(pointing_error, dim=NDRONES, inputs=[states[steps % len(states)], targets], outputs=[loss])
    return loss


def plan(iters=40, lr=0.5):
    omega = wp.array(np.array([[0.6, 0.9, 0.0], [1.0, 0.0, 0.5], [0.0, -0.8, 1.2]], dtype=np.float32),
                     dtype=wp.vec3, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = simulate(omega)
        tape.backward(loss)
        g = omega.grad.numpy().copy()
        history.append((omega.numpy().copy(), g))
        omega.assign(omega.numpy() - lr * g)
        tape.zero()
    print("pointing loss", loss.numpy()[0])
    return history


if __name__ == "__main__":
    plan()
