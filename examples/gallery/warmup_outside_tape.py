"""Fit a drag coefficient to a measured glide: the first seconds are simulated before the tape starts.

The warm-up steps use the drag being fitted, so the measured positions depend
on it through them too; the gradient misses that part.
"""

import numpy as np
import warp as wp

DT = 0.05
WARMUP, MEASURED = 10, 20


@wp.kernel
def glide(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), drag: wp.array(dtype=float),
          x_out: wp.array(dtype=wp.vec2), v_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    vel = v[i]
    acc = wp.vec2(0.0, -9.8) - drag[0] * wp.length(vel) * vel
    v_out[i] = vel + DT * acc
    x_out[i] = x[i] + DT * vel


@wp.kernel
def misfit(x: wp.array(dtype=wp.vec2), seen: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - seen[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


class Glider:
    def __init__(self, drag):
        self.drag = wp.array([drag], dtype=float, requires_grad=True)
        steps = WARMUP + MEASURED + 1
        self.xs = [wp.zeros(4, dtype=wp.vec2, requires_grad=True) for _ in range(steps)]
        self.vs = [wp.array(np.tile([[6.0, 1.0]], (4, 1)).astype(np.float32), dtype=wp.vec2, requires_grad=True)
                   for _ in range(steps)]

    def step(self, t):
        wp.launch(glide, dim=4, inputs=[self.xs[t], self.vs[t], self.drag],
                  outputs=[self.xs[t + 1], self.vs[t + 1]])

    def fit_gradient(self, seen):
        for t in range(WARMUP):
            self.step(t)  # expect: TW207
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            for t in range(WARMUP, WARMUP + MEASURED):
                wp.launch(glide, dim=4, inputs=[self.xs[t], self.vs[t], self.drag],
                          outputs=[self.xs[t + 1], self.vs[t + 1]])
            wp.launch(misfit, dim=4, inputs=[self.xs[-1], seen], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), float(self.drag.grad.numpy()[0])


if __name__ == "__main__":
    seen = wp.array(np.tile([[7.5, -2.0]], (4, 1)).astype(np.float32), dtype=wp.vec2)
    print("loss, d loss / d drag:", Glider(0.05).fit_gradient(seen))
