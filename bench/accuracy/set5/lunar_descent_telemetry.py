# correct: telemetry windows with a numpy read of the window-end state for logging, but the state itself is carried as the taped array, so the full horizon stays on the tape
"""Lunar lander descent planning with per-window telemetry logging."""
import numpy as np
import warp as wp

WINDOWS = 4
STEPS = 5


@wp.kernel
def rocket_step(pos: wp.array(dtype=wp.vec3), vel: wp.array(dtype=wp.vec3), thrust: wp.array(dtype=wp.vec3), k: int,
                dt: wp.float32, pos_out: wp.array(dtype=wp.vec3), vel_out: wp.array(dtype=wp.vec3)):
    v = vel[0]
    drag = 0.02 * wp.length(v) * v
    a = thrust[k] - drag + wp.vec3(0.0, -3.7, 0.0)
    vel_out[0] = v + dt * a
    pos_out[0] = pos[0] + dt * v


@wp.kernel
def landing_cost(pos: wp.array(dtype=wp.vec3), vel: wp.array(dtype=wp.vec3), thrust: wp.array(dtype=wp.vec3),
                 loss: wp.array(dtype=wp.float32)):
    wp.atomic_add(loss, 0, wp.length_sq(pos[0]) + 2.0 * wp.length_sq(vel[0]))
    for k in range(thrust.shape[0]):
        wp.atomic_add(loss, 0, 0.001 * wp.length_sq(thrust[k]))


def fly_window(pos, vel, thrust, w, dt):
    for s in range(STEPS):
        pos_next = wp.zeros_like(pos)
        vel_next = wp.zeros_like(vel)
        wp.launch(rocket_step, dim=1, inputs=[pos, vel, thrust, w * STEPS + s, dt], outputs=[pos_next, vel_next])
        pos, vel = pos_next, vel_next
    return pos, vel


def mission_cost(thrust, tape=None, dt=0.1):
    pos = wp.array([[3.0, 10.0, -2.0]], dtype=wp.vec3, requires_grad=True)
    vel = wp.array([[-1.0, -4.0, 0.5]], dtype=wp.vec3, requires_grad=True)
    for w in range(WINDOWS):
        pos_end, vel_end = fly_window(pos, vel, thrust, w, dt)
        print(f"  window {w}: altitude {pos_end.numpy()[0][1]:.2f}")
        pos = pos_end
        vel = vel_end
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    wp.launch(landing_cost, dim=1, inputs=[pos, vel, thrust], outputs=[loss])
    return loss


def plan(iters=20, lr=0.2):
    thrust = wp.array(np.tile(np.array([0.0, 3.7, 0.0], dtype=np.float32), (WINDOWS * STEPS, 1)), dtype=wp.vec3,
                      requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = mission_cost(thrust)
        tape.backward(loss)
        g = thrust.grad.numpy().copy()
        history.append((thrust.numpy().copy(), g))
        thrust.assign(thrust.numpy() - lr * g)
        tape.zero()
        print(f"iter {it} landing cost {loss.numpy()[0]:.3f}")
    return history


if __name__ == "__main__":
    plan()
