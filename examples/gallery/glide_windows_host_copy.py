"""Plan a glider's pitch over several windows; each window restarts from a host copy of the last state.

`wp.array(end.numpy())` makes a new array from the values: the tape cannot
follow them through NumPy, so earlier windows' pitch gets no gradient
through the carried position.
"""

import numpy as np
import warp as wp

WINDOWS, STEPS = 3, 10


@wp.kernel
def glide(pos: wp.array(dtype=wp.vec2), pitch: wp.array(dtype=float), k: int, dt: float,
          out: wp.array(dtype=wp.vec2)):
    p = pos[0]
    a = pitch[k]
    out[0] = wp.vec2(p[0] + dt * wp.cos(a), p[1] + dt * (wp.sin(a) - 0.3))


@wp.kernel
def miss(pos: wp.array(dtype=wp.vec2), target: wp.vec2, loss: wp.array(dtype=float)):
    d = pos[0] - target
    loss[0] = wp.dot(d, d)


def window(pos, pitch, w, dt=0.1):
    for s in range(STEPS):
        nxt = wp.zeros_like(pos)
        wp.launch(glide, dim=1, inputs=[pos, pitch, w * STEPS + s, dt], outputs=[nxt])
        pos = nxt
    return pos


def cost(pitch):
    pos = wp.array([wp.vec2(0.0, 2.0)], dtype=wp.vec2, requires_grad=True)
    for w in range(WINDOWS):
        end = window(pos, pitch, w)
        pos = wp.array(end.numpy(), dtype=wp.vec2, requires_grad=True)  # expect: TW207
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(miss, dim=1, inputs=[pos, wp.vec2(3.0, 1.0)], outputs=[loss])
    return loss


def main():
    pitch = wp.array(np.zeros(WINDOWS * STEPS, dtype=np.float32), dtype=float, requires_grad=True)
    for it in range(3):
        tape = wp.Tape()
        with tape:
            loss = cost(pitch)
        tape.backward(loss)
        pitch.assign(pitch.numpy() - 0.1 * pitch.grad.numpy())
        tape.zero()


if __name__ == "__main__":
    main()
