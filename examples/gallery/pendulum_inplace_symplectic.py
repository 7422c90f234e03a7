"""Bug: a symplectic Euler step updates a struct's angles and rates in place; the angle update accumulates
into the array the torque read through sin(), so the backward pass replays sin() on the new angles."""

import numpy as np
import warp as wp


@wp.struct
class Pendulums:
    theta: wp.array(dtype=float)
    omega: wp.array(dtype=float)


@wp.kernel
def step(s: Pendulums, g_over_l: wp.array(dtype=float), dt: float):
    i = wp.tid()
    s.omega[i] += -g_over_l[0] * wp.sin(s.theta[i]) * dt
    s.theta[i] += s.omega[i] * dt  # expect: TW104


@wp.kernel
def swing_error(s: Pendulums, target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = s.theta[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


class Swing:
    def __init__(self, angles):
        self.state = Pendulums()
        self.state.theta = wp.array(angles, dtype=float, requires_grad=True)
        self.state.omega = wp.zeros(len(angles), dtype=float, requires_grad=True)
        self.g_over_l = wp.array([9.81], dtype=float, requires_grad=True)

    def simulate(self, tape, dt):
        with tape:
            wp.launch(step, dim=self.state.theta.shape[0], inputs=[self.state, self.g_over_l, dt])


swing = Swing(np.linspace(0.2, 1.2, 4).astype(np.float32))
target = wp.array(np.full(4, 0.1, dtype=np.float32))
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
swing.simulate(tape, 0.3)
with tape:
    wp.launch(swing_error, dim=4, inputs=[swing.state, target], outputs=[loss])
tape.backward(loss)
print("loss", loss.numpy()[0], "dL/d(g/l)", swing.g_over_l.grad.numpy())
