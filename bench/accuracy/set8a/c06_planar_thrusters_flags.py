# correct: wrench arrays carry gradients; only the integer saturation flags are allocated without requires_grad
"""Two planar rigid bodies with a pair of thrusters each: find constant thrust levels that
bring each body to a hover waypoint after one second."""
import numpy as np
import warp as wp

import _planar as rb

wp.config.quiet = True
wp.set_device("cpu")

N_BODIES = 2
STEPS = 50
DT = 0.02


@wp.kernel
def flag_saturation(thrust: wp.array(dtype=wp.float64), limit: wp.float64, flags: wp.array(dtype=wp.int32)):
    i = wp.tid()
    if thrust[2 * i] > limit or thrust[2 * i + 1] > limit:
        flags[i] = 1
    else:
        flags[i] = 0


@wp.kernel
def waypoint_cost(pos: wp.array(dtype=wp.vec2d), ang: wp.array(dtype=wp.float64),
                  goal: wp.array(dtype=wp.vec2d), loss: wp.array(dtype=wp.float64)):
    i = wp.tid()
    d = pos[i] - goal[i]
    wp.atomic_add(loss, 0, wp.dot(d, d) + wp.float64(0.5) * ang[i] * ang[i])


class Flight:
    def __init__(self):
        self.arm = wp.array([0.15, 0.25], dtype=wp.float64)
        self.goal = wp.array([[0.4, 1.2], [-0.3, 0.8]], dtype=wp.vec2d)
        self.bodies = [rb.alloc_body(N_BODIES) for _ in range(STEPS + 1)]
        self.wrenches = [(wp.zeros(N_BODIES, dtype=wp.vec2d, requires_grad=True),
                          wp.zeros(N_BODIES, dtype=wp.float64, requires_grad=True)) for _ in range(STEPS)]
        self.saturated = wp.zeros(N_BODIES, dtype=wp.int32)
        self.loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)

    def step(self, k, thrust):
        b, nb = self.bodies[k], self.bodies[k + 1]
        force, torque = self.wrenches[k]
        wp.launch(rb.thruster_wrench, dim=N_BODIES, inputs=[b.ang, thrust, self.arm], outputs=[force, torque])
        wp.launch(rb.integrate_body, dim=N_BODIES,
                  inputs=[b.pos, b.vel, b.ang, b.omega, force, torque,
                          wp.float64(1.0), wp.float64(0.02), wp.float64(DT)],
                  outputs=[nb.pos, nb.vel, nb.ang, nb.omega])

    def fly(self, thrust):
        wp.launch(flag_saturation, dim=N_BODIES, inputs=[thrust, wp.float64(8.0)], outputs=[self.saturated])
        for k in range(STEPS):
            self.step(k, thrust)
        last = self.bodies[-1]
        wp.launch(waypoint_cost, dim=N_BODIES, inputs=[last.pos, last.ang, self.goal], outputs=[self.loss])
        return self.loss


PARAMS0 = np.array([5.3, 5.1, 5.0, 5.2])
FD_EPS = 1e-6


def evaluate(p):
    fl = Flight()
    thrust = wp.array(p, dtype=wp.float64, requires_grad=True)
    tape = wp.Tape()
    with tape:
        loss = fl.fly(thrust)
    tape.backward(loss)
    return float(loss.numpy()[0]), thrust.grad.numpy().copy()


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(5):
        l, g = evaluate(p)
        p -= 0.004 * g
        print(f"iter {it}: cost {l:.5f}  thrust={np.round(p, 4)}")
        p = np.minimum(p, 8.0)
