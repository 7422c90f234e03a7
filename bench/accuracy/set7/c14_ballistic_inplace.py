# correct: Fireworks shells: velocity-only drag, positions advanced in place; aim the launch speed at a burst height.
"""Fireworks shells: velocity-only drag, positions advanced in place; aim the launch speed at a burst height."""
import numpy as np
import warp as wp

N = 16
STEPS = 25
DT = 0.04


@wp.kernel
def launch_velocity(dirs: wp.array(dtype=wp.vec3), speed: wp.array(dtype=float), v: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v[i] = speed[0] * dirs[i]


@wp.kernel
def drag_step(v: wp.array(dtype=wp.vec3), k: float, v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    vi = v[i]
    v_out[i] = vi + (wp.vec3(0.0, -9.81, 0.0) - k * wp.length(vi) * vi) * DT


@wp.kernel
def advance_positions(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x[i] = x[i] + v[i] * DT  # in place: x is only ever read linearly


@wp.kernel
def burst_loss(x: wp.array(dtype=wp.vec3), h: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i][1] - h
    wp.atomic_add(loss, 0, d * d / float(N))


rng = np.random.default_rng(7)
DIRS = rng.normal(size=(N, 3)) * 0.2 + np.array([0.0, 1.0, 0.0])
DIRS = (DIRS / np.linalg.norm(DIRS, axis=1, keepdims=True)).astype(np.float32)
PARAMS0 = np.array([25.0], dtype=np.float32)


def evaluate(speed_np):
    speed = wp.array(speed_np, dtype=float, requires_grad=True)
    x = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    v = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(launch_velocity, dim=N, inputs=[wp.array(DIRS, dtype=wp.vec3), speed], outputs=[v])
        for _ in range(STEPS):
            v_next = wp.empty_like(v)
            wp.launch(drag_step, dim=N, inputs=[v, 0.02], outputs=[v_next])
            wp.launch(advance_positions, dim=N, inputs=[x, v_next])
            v = v_next
        wp.launch(burst_loss, dim=N, inputs=[x, 30.0], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), speed.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(PARAMS0))
