import numpy as np
import warp as wp

from _ballistics import drag_step, landing_error, make_state

STEPS = 12
DT = 0.05

POS0 = np.zeros((3, 3), dtype=np.float32)
VEL0 = np.array([[4.0, 5.0, 0.0], [6.0, 3.0, 1.0], [3.0, 7.0, -1.0]], dtype=np.float32)
TARGET = np.array([[2.0, 1.5, 0.0], [2.5, 0.8, 0.4], [1.5, 2.0, -0.3]], dtype=np.float32)


def simulate(drag_value):
    drag = wp.array([drag_value], dtype=wp.float32, requires_grad=True)
    state = make_state(POS0, VEL0)
    target = wp.array(TARGET, dtype=wp.vec3)
    loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            wp.launch(drag_step, dim=3, inputs=[state, drag, DT], outputs=[state])  # expect: overwrite
        wp.launch(landing_error, dim=3, inputs=[state, target], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), float(drag.grad.numpy()[0])


def main():
    c = 0.3
    for it in range(4):
        l, g = simulate(c)
        print(f"iter {it}: drag={c:.4f} loss={l:.5f} grad={g:.5f}")
        c = max(c - 0.01 * g, 0.0)


if __name__ == "__main__":
    main()
