"""Aim a volley of projectiles with quadratic drag at a set of ground targets."""

import numpy as np
import warp as wp

from _ballistics import drag_step, launch_velocity, make_state

NUM_SHOTS = 6
STEPS = 60
DT = 0.02


@wp.kernel
def miss_distance(
    state_pos: wp.array(dtype=wp.vec3),
    targets: wp.array(dtype=wp.vec3),
    loss: wp.array(dtype=float),
):
    i = wp.tid()
    d = state_pos[i] - targets[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def simulate(rest, speed, elevation, heading, targets, loss):
    states = [make_state(rest) for _ in range(STEPS + 1)]
    wp.launch(launch_velocity, dim=NUM_SHOTS, inputs=[speed, elevation, heading], outputs=[states[0]])
    for k in range(STEPS):
        wp.launch(drag_step, dim=NUM_SHOTS, inputs=[states[k], 0.02, DT], outputs=[states[k + 1]])
    wp.launch(miss_distance, dim=NUM_SHOTS, inputs=[states[-1].pos, targets], outputs=[loss])
    return states


def main():
    rest = wp.array(np.zeros((NUM_SHOTS, 3), dtype=np.float32), dtype=wp.vec3)
    targets_np = np.array([[8.0, 0.0, 0.5 * i - 1.0] for i in range(NUM_SHOTS)], dtype=np.float32)
    targets = wp.array(targets_np, dtype=wp.vec3)

    speed = wp.array(np.full(NUM_SHOTS, 9.0, dtype=np.float32), dtype=float, requires_grad=True)
    elevation = wp.array(np.full(NUM_SHOTS, 0.6, dtype=np.float32), dtype=float, requires_grad=True)
    heading = wp.array(np.zeros(NUM_SHOTS, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)

    lr = 0.002
    for it in range(15):
        loss.zero_()
        tape = wp.Tape()
        with tape:
            states = simulate(rest, speed, elevation, heading, targets, loss)
        tape.backward(loss)
        gs, ge, gh = speed.grad.numpy(), elevation.grad.numpy(), heading.grad.numpy()
        if it % 3 == 0:
            print(f"iter {it:2d} loss {loss.numpy()[0]:.4f} |dL/dspeed| {np.linalg.norm(gs):.4f} |dL/delev| {np.linalg.norm(ge):.4f}")
        speed.assign(speed.numpy() - lr * gs)
        elevation.assign(elevation.numpy() - lr * ge)
        heading.assign(heading.numpy() - lr * gh)
        tape.zero()

    print("impact points", np.round(states[-1].pos.numpy(), 2))


if __name__ == "__main__":
    main()
