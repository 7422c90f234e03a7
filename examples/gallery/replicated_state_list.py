"""A tuned-mass-damper rollout that keeps one state per step in a list built as ``[wp.zeros(...)] * (STEPS +
1)``: list multiplication repeats one reference, so every entry is the same array and each step overwrites
what the previous one read.  Build the list with a comprehension (one array per step)."""

import numpy as np
import warp as wp

wp.config.quiet = True

N, STEPS = 16, 6


@wp.kernel
def deck_step(s: wp.array(dtype=wp.vec2), damping: wp.array(dtype=float), s_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    x = s[i]
    s_out[i] = wp.vec2(x[0] + 0.05 * x[1], x[1] - 0.05 * (x[0] + damping[0] * x[1]))


@wp.kernel
def energy(s: wp.array(dtype=wp.vec2), e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, wp.dot(s[i], s[i]))


class Deck:
    def __init__(self):
        self.states = [wp.zeros(N, dtype=wp.vec2, requires_grad=True)] * (STEPS + 1)  # expect: TW101  expect: TW105

    def rollout(self, damping):
        states = self.states
        for t in range(STEPS):
            wp.launch(deck_step, dim=N, inputs=[states[t], damping], outputs=[states[t + 1]])
        return states[STEPS]


deck = Deck()
deck.states[0].assign(np.tile([1.0, 0.0], (N, 1)).astype(np.float32))
damping = wp.array([0.3], dtype=float, requires_grad=True)
e = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    final = deck.rollout(damping)
    wp.launch(energy, dim=N, inputs=[final], outputs=[e])
tape.backward(e)
print("energy", e.numpy()[0], "d energy / d damping", damping.grad.numpy()[0])
