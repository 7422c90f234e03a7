"""Estimate a steady wind vector from where the free end of a hanging rope ends up."""

import numpy as np
import warp as wp

from _rope import RopeState, alloc_state, rope_step

SEGMENTS = 10
STEPS = 80
DT = 0.005


@wp.kernel
def tip_error(x: wp.array(dtype=wp.vec3), target: wp.vec3, loss: wp.array(dtype=float)):
    d = x[SEGMENTS - 1] - target
    loss[0] = wp.dot(d, d)


def hanging_rope():
    x = np.zeros((SEGMENTS, 3), dtype=np.float32)
    x[:, 1] = -0.1 * np.arange(SEGMENTS)
    return x


def simulate(wind, loss, target):
    states = [alloc_state(SEGMENTS, hanging_rope())]
    for _ in range(STEPS):
        states.append(alloc_state(SEGMENTS))
        wp.launch(rope_step, dim=SEGMENTS, inputs=[states[-2], wind, 0.1, 400.0, 0.5, DT], outputs=[states[-1]])
    wp.launch(tip_error, dim=1, inputs=[states[-1].x, target], outputs=[loss])
    return states


def main():
    target = wp.vec3(0.12, -0.85, 0.05)
    wind = wp.zeros(1, dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    for it in range(12):
        tape = wp.Tape()
        with tape:
            states = simulate(wind, loss, target)
        tape.backward(loss)
        g = wind.grad.numpy()[0]
        if it % 3 == 0:
            print(f"iter {it:2d} loss {loss.numpy()[0]:.6f} wind {np.round(wind.numpy()[0], 3)} grad {np.round(g, 4)}")
        wind.assign(wind.numpy() - 20.0 * wind.grad.numpy())
        tape.zero()

    print("tip", np.round(states[-1].x.numpy()[-1], 3), "wind estimate", np.round(wind.numpy()[0], 3))


if __name__ == "__main__":
    main()
