"""Heliostat aiming: an Aimer object keeps its tape in ``self.tape`` and replaces it with a fresh one every
step instead of resetting it.  Nothing zeroes the gradients the previous tape's backward() left, so the
optimizer sees the sum over iterations.  The replacement of the held tape is the line to change
(``self.tape.reset()`` zeroes the gradients and forgets the launches)."""

import numpy as np
import warp as wp
import warp.optim

wp.config.quiet = True


@wp.kernel
def spillage(aim: wp.array(dtype=float), sun: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    s = sun[i]
    dx = s[0] + aim[0] - 0.2
    dy = s[1] + aim[1] + 0.1
    wp.atomic_add(loss, 0, dx * dx + 2.0 * dy * dy)


class Aimer:
    def __init__(self):
        self.aim = wp.zeros(2, dtype=float, requires_grad=True)
        self.opt = warp.optim.Adam([self.aim], lr=0.05)
        self.sun = wp.array(np.random.default_rng(3).normal(0.0, 0.05, (8, 2)).astype(np.float32), dtype=wp.vec2)
        self.tape = wp.Tape()

    def step(self):
        self.tape = wp.Tape()  # expect: TW202
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        with self.tape:
            wp.launch(spillage, dim=8, inputs=[self.aim, self.sun], outputs=[loss])
        self.tape.backward(loss)
        self.opt.step([self.aim.grad])
        return float(loss.numpy()[0])


aimer = Aimer()
for _ in range(4):
    print(aimer.step())
