"""Estimate a buoy's drag from its drift: the mooring model runs a few spin-up steps before recording."""

import numpy as np
import warp as wp

N = 6
SPIN_UP = 5
STEPS = 10
DT = 0.05


@wp.kernel
def drift(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), drag: wp.array(dtype=float),
          x_out: wp.array(dtype=wp.vec2), v_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    current = wp.vec2(0.4, 0.1)
    a = drag[0] * (current - v[i]) - 0.5 * x[i]
    v_out[i] = v[i] + a * DT
    x_out[i] = x[i] + v_out[i] * DT


@wp.kernel
def offset_error(x: wp.array(dtype=wp.vec2), seen: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - seen[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


class Mooring:
    def __init__(self, steps):
        self.x = [wp.zeros(N, dtype=wp.vec2, requires_grad=True) for _ in range(steps + 1)]
        self.v = [wp.zeros(N, dtype=wp.vec2, requires_grad=True) for _ in range(steps + 1)]

    def step(self, drag, t):
        wp.launch(drift, dim=N, inputs=[self.x[t], self.v[t], drag], outputs=[self.x[t + 1], self.v[t + 1]])


def drag_gradient(drag_value, seen):
    drag = wp.array([drag_value], dtype=float, requires_grad=True)
    buoys = Mooring(SPIN_UP + STEPS)
    for t in range(SPIN_UP):
        buoys.step(drag, t)  # expect: TW207
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for t in range(SPIN_UP, SPIN_UP + STEPS):
            buoys.step(drag, t)
        wp.launch(offset_error, dim=N, inputs=[buoys.x[-1], seen], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), float(drag.grad.numpy()[0])


def main():
    seen = wp.array(np.tile([0.3, 0.08], (N, 1)).astype(np.float32), dtype=wp.vec2)
    print(drag_gradient(1.2, seen))


if __name__ == "__main__":
    main()
