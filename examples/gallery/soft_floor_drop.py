"""Fit the launch velocity of particles so they land on targets, with a penalty floor contact.

Positions and velocities ping-pong between two buffers held by the simulator.
"""

import numpy as np
import warp as wp

N = 16
STEPS = 40
DT = 0.01


@wp.kernel
def contact_forces(x: wp.array(dtype=wp.vec3), floor: float, stiffness: float, f: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    depth = wp.max(floor - x[i][1], 0.0)
    f[i] = wp.vec3(0.0, -9.8 + stiffness * depth, 0.0)


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3), dt: float,
              x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v_new = v[i] + f[i] * dt
    v_out[i] = v_new
    x_out[i] = x[i] + v_new * dt


@wp.kernel
def landing_error(x: wp.array(dtype=wp.vec3), target: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


class Drop:
    def __init__(self, start, floor):
        self.x = [wp.array(start, dtype=wp.vec3, requires_grad=True) for _ in range(2)]
        self.v = [wp.zeros(N, dtype=wp.vec3, requires_grad=True) for _ in range(2)]
        self.f = [wp.zeros(N, dtype=wp.vec3, requires_grad=True) for _ in range(STEPS)]
        self.floor = floor

    def run(self, v0):
        wp.copy(self.v[0], v0)
        for t in range(STEPS):
            a, b = t % 2, (t + 1) % 2
            wp.launch(contact_forces, dim=N, inputs=[self.x[a], self.floor, 2000.0], outputs=[self.f[t]])
            wp.launch(integrate, dim=N, inputs=[self.x[a], self.v[a], self.f[t], DT],  # expect: TW101  note: TW101
                      outputs=[self.x[b], self.v[b]])
        return self.x[STEPS % 2]


def main():
    rng = np.random.default_rng(3)
    start = np.c_[rng.uniform(-1, 1, N), rng.uniform(0.05, 0.3, N), rng.uniform(-1, 1, N)].astype(np.float32)
    target = wp.array(start + np.array([0.5, 0.0, 0.0], dtype=np.float32), dtype=wp.vec3)
    v0 = wp.array(np.tile([1.0, 1.0, 0.0], (N, 1)).astype(np.float32), dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    sim = Drop(start, floor=0.0)
    tape = wp.Tape()
    with tape:
        final = sim.run(v0)
        wp.launch(landing_error, dim=N, inputs=[final, target], outputs=[loss])
    tape.backward(loss)
    print("loss", loss.numpy()[0], "dL/dv0[0]", v0.grad.numpy()[0])


if __name__ == "__main__":
    main()
