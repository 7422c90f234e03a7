"""Correct: the same symplectic Euler step, reading one struct of states and writing the next one, so
nothing the step read is updated under it."""

import numpy as np
import warp as wp


@wp.struct
class Pendulums:
    theta: wp.array(dtype=float)
    omega: wp.array(dtype=float)


@wp.kernel
def step(s: Pendulums, g_over_l: wp.array(dtype=float), dt: float, out: Pendulums):
    i = wp.tid()
    out.omega[i] = s.omega[i] - g_over_l[0] * wp.sin(s.theta[i]) * dt
    out.theta[i] = s.theta[i]
    out.theta[i] += out.omega[i] * dt


@wp.kernel
def swing_error(s: Pendulums, target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = s.theta[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


def pendulums(theta):
    s = Pendulums()
    s.theta = wp.array(theta, dtype=float, requires_grad=True)
    s.omega = wp.zeros(len(theta), dtype=float, requires_grad=True)
    return s


class Swing:
    def __init__(self, angles, steps):
        self.states = [pendulums(angles)] + [pendulums(np.zeros_like(angles)) for _ in range(steps)]
        self.g_over_l = wp.array([9.81], dtype=float, requires_grad=True)

    def simulate(self, tape, dt):
        with tape:
            for s, out in zip(self.states, self.states[1:]):
                wp.launch(step, dim=s.theta.shape[0], inputs=[s, self.g_over_l, dt], outputs=[out])


swing = Swing(np.linspace(0.2, 1.2, 4).astype(np.float32), 3)
target = wp.array(np.full(4, 0.1, dtype=np.float32))
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
swing.simulate(tape, 0.3)
with tape:
    wp.launch(swing_error, dim=4, inputs=[swing.states[-1], target], outputs=[loss])
tape.backward(loss)
print("loss", loss.numpy()[0], "dL/d(g/l)", swing.g_over_l.grad.numpy())
