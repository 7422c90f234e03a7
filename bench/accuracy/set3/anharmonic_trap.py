"""Estimate the stiffness of an anharmonic optical trap from where a cloud of beads ends up."""
import numpy as np
import warp as wp


@wp.struct
class Beads:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)


@wp.func
def trap_force(x: wp.vec3, k: float, k4: float):
    r2 = wp.dot(x, x)
    return -(k + k4 * r2) * x


@wp.kernel
def advance(beads: Beads, stiffness: wp.array(dtype=float), k4: float, drag: float, dt: float):
    i = wp.tid()
    x = beads.pos[i]
    v = beads.vel[i]
    f = trap_force(x, stiffness[0], k4) - drag * v
    v = v + dt * f
    beads.vel[i] = v
    beads.pos[i] = x + dt * v


@wp.kernel
def spread_loss(pos: wp.array(dtype=wp.vec3), goal: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = pos[i] - goal[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


class TrapSim:
    def __init__(self, n, seed=3):
        rng = np.random.default_rng(seed)
        self.n = n
        self.x0 = rng.uniform(-1.0, 1.0, size=(n, 3)).astype(np.float32)
        self.v0 = rng.normal(0.0, 0.3, size=(n, 3)).astype(np.float32)
        self.state = Beads()
        self.state.pos = wp.array(self.x0, dtype=wp.vec3, requires_grad=True)
        self.state.vel = wp.array(self.v0, dtype=wp.vec3, requires_grad=True)
        self.stiffness = wp.array([2.0], dtype=float, requires_grad=True)
        self.k4 = 0.8
        self.drag = 0.4
        self.dt = 0.05

    def step(self):
        wp.launch(advance, dim=self.n, inputs=[self.state, self.stiffness, self.k4, self.drag, self.dt])  # expect: overwrite

    def run(self, steps):
        for _ in range(steps):
            self.step()
        return self.state


sim = TrapSim(n=16)
goal = wp.array(0.5 * sim.x0, dtype=wp.vec3)
loss = wp.zeros(1, dtype=float, requires_grad=True)
STEPS = 20

tape = wp.Tape()
with tape:
    final = sim.run(STEPS)
    wp.launch(spread_loss, dim=sim.n, inputs=[final.pos, goal], outputs=[loss])
tape.backward(loss)

loss_value = float(loss.numpy()[0])
stiffness_grad = float(sim.stiffness.grad.numpy()[0])
print("loss", loss_value, "dL/dk", stiffness_grad)
