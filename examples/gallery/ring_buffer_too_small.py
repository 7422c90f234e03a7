"""A damped oscillator rolled out through a ring of two state buffers (``states[step % self.num_buffers]``)
on one tape of four steps: the third step writes the buffer the first step read, so the first step's
adjoint replays with overwritten values.  The ring's length, ``self.num_buffers = 2``, is the line to
change (the launch that overwrites is related)."""

import numpy as np
import warp as wp

wp.config.quiet = True


@wp.kernel
def advance(x: wp.array(dtype=float), damping: wp.array(dtype=float), x_out: wp.array(dtype=float)):
    i = wp.tid()
    x_out[i] = x[i] * (1.0 - damping[0]) + 0.01 * wp.sin(x[i])


@wp.kernel
def energy(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, x[i] * x[i])


class Sim:
    def __init__(self, steps):
        self.num_buffers = 2  # expect: TW101
        self.states = [wp.zeros(16, dtype=float, requires_grad=True) for _ in range(self.num_buffers)]
        self.steps = steps

    def state(self, step):
        return self.states[step % self.num_buffers]

    def rollout(self, damping):
        for step in range(self.steps):
            src, dst = self.state(step), self.state(step + 1)
            wp.launch(advance, dim=16, inputs=[src, damping], outputs=[dst])


sim = Sim(4)
sim.states[0].assign(np.linspace(-1, 1, 16).astype(np.float32))
damping = wp.array([0.1], dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    sim.rollout(damping)
    wp.launch(energy, dim=16, inputs=[sim.state(4)], outputs=[loss])
tape.backward(loss)
print(damping.grad.numpy())
