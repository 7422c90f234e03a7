"""A small model library: a struct holding particle buffers and a stepping method."""

import warp as wp


@wp.struct
class Particles:
    x: wp.array(dtype=float)
    v: wp.array(dtype=float)


@wp.struct
class Model:
    particles: Particles
    stiffness: wp.array(dtype=float)


@wp.kernel
def spring_step(m: Model, dt: float):
    i = wp.tid()
    f = -m.stiffness[0] * m.particles.x[i] * m.particles.x[i]
    m.particles.v[i] = m.particles.v[i] + f * dt  # note: TW104 (linear in v: harmless)
    m.particles.x[i] = m.particles.x[i] + m.particles.v[i] * dt  # expect: TW104


class Simulator:
    def __init__(self, n, k):
        self.model = Model()
        self.model.particles = Particles()
        self.model.particles.x = wp.full(n, 0.5, dtype=float, requires_grad=True)
        self.model.particles.v = wp.zeros(n, dtype=float, requires_grad=True)
        self.model.stiffness = wp.array([k], dtype=float, requires_grad=True)
        self.n = n

    def step(self, dt):
        wp.launch(spring_step, dim=self.n, inputs=[self.model, dt])  # expect: TW101 (x)  note: TW101 (v)
