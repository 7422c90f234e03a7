"""Tune per-joint coupling stiffness of a pendulum chain so its pose after one second matches a reference."""

import numpy as np
import warp as wp

from _articulation import ChainModel, new_state, step

NUM_JOINTS = 8
STEPS = 50
DT = 0.02


@wp.kernel
def pose_error(q: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = q[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


def initial_pose():
    return np.linspace(0.9, -0.4, NUM_JOINTS).astype(np.float32)


def rollout(model, target, loss):
    state = new_state(initial_pose())
    for _ in range(STEPS):
        step(state, model, DT)
    wp.launch(pose_error, dim=NUM_JOINTS, inputs=[state.q, target], outputs=[loss])
    return state


def main():
    model = ChainModel()
    model.stiffness = wp.array(np.full(NUM_JOINTS, 2.0, dtype=np.float32), dtype=float, requires_grad=True)
    model.damping = 0.1
    model.gravity_over_length = 9.81

    target = wp.array(np.linspace(-0.3, 0.5, NUM_JOINTS).astype(np.float32), dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)

    lr = 0.5
    for it in range(20):
        loss.zero_()
        tape = wp.Tape()
        with tape:
            state = rollout(model, target, loss)
        tape.backward(loss)
        g = model.stiffness.grad.numpy()
        if it % 4 == 0:
            print(f"iter {it:2d} loss {loss.numpy()[0]:.5f} |grad| {np.linalg.norm(g):.5f}")
        model.stiffness.assign(np.maximum(model.stiffness.numpy() - lr * g, 0.0))
        tape.zero()

    print("stiffness", np.round(model.stiffness.numpy(), 3))
    print("final pose", np.round(state.q.numpy(), 3))


if __name__ == "__main__":
    main()
