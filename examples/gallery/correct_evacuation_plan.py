"""Arrange people in a hall: stay near the exit while keeping personal space.

All pairs (i, j) are summed, including i == j, to keep the launch a plain 2-D grid.
"""
import numpy as np
import warp as wp

from _social_forces import crowd_discomfort, exit_attraction

PEOPLE = 16


def discomfort_and_grad(layout_np):
    people = wp.array(layout_np.astype(np.float32), dtype=wp.vec2, requires_grad=True)
    total = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(crowd_discomfort, dim=(PEOPLE, PEOPLE), inputs=[people, 0.4], outputs=[total])
        wp.launch(exit_attraction, dim=PEOPLE, inputs=[people, wp.vec2(3.0, 0.0)], outputs=[total])
    tape.backward(total)
    return float(total.numpy()[0]), people.grad.numpy().copy()


def initial_layout():
    rng = np.random.default_rng(8)
    return rng.uniform(-1.0, 1.0, size=(PEOPLE, 2))


if __name__ == "__main__":
    wp.init()
    layout = initial_layout()
    for it in range(12):
        value, grad = discomfort_and_grad(layout)
        if it % 4 == 0:
            print(f"iter {it}: discomfort={value:.4f} finite={np.isfinite(grad).all()}")
        layout = layout - 0.05 * grad
    print("mean distance to exit", np.linalg.norm(layout - np.array([3.0, 0.0]), axis=1).mean())
