"""A hanging rope (particle chain) driven by its anchor, for b03.

The simulator object owns its buffers: positions and velocities per substep,
and one force accumulator that each substep clears and refills.
"""
import numpy as np
import warp as wp


@wp.kernel
def chain_springs(
    x: wp.array(dtype=wp.vec3),
    v: wp.array(dtype=wp.vec3),
    rest: float,
    coeffs: wp.array(dtype=float),
    f: wp.array(dtype=wp.vec3),
):
    s = wp.tid()
    d = x[s + 1] - x[s]
    l = wp.length(d)
    n = d / l
    c = coeffs[0] * (l - rest) + coeffs[1] * wp.dot(v[s + 1] - v[s], n)
    wp.atomic_add(f, s, c * n)
    wp.atomic_sub(f, s + 1, c * n)


@wp.kernel
def step_particles(
    x: wp.array(dtype=wp.vec3),
    v: wp.array(dtype=wp.vec3),
    f: wp.array(dtype=wp.vec3),
    inv_mass: float,
    anchor_vel: wp.vec3,
    dt: float,
    x_out: wp.array(dtype=wp.vec3),
    v_out: wp.array(dtype=wp.vec3),
):
    i = wp.tid()
    if i == 0:
        v1 = anchor_vel
    else:
        v1 = v[i] + (f[i] * inv_mass + wp.vec3(0.0, -9.81, 0.0)) * dt
    v_out[i] = v1
    x_out[i] = x[i] + v1 * dt


class RopeSim:
    def __init__(self, n=8, seg=0.05, mass=0.02, dt=0.004, substeps=30):
        self.n, self.seg, self.dt, self.substeps = n, seg, dt, substeps
        self.inv_mass = 1.0 / mass
        x0 = np.zeros((n, 3), dtype=np.float32)
        x0[:, 0] = np.arange(n) * seg * 0.9
        self.x0_np = x0
        self.xs = [wp.zeros(n, dtype=wp.vec3, requires_grad=True) for _ in range(substeps + 1)]
        self.vs = [wp.zeros(n, dtype=wp.vec3, requires_grad=True) for _ in range(substeps + 1)]
        self.forces = wp.zeros(n, dtype=wp.vec3, requires_grad=True)

    def reset(self):
        self.xs[0].assign(self.x0_np)
        self.vs[0].zero_()

    def simulate(self, coeffs, anchor_vel):
        """Record the rollout on the active tape; returns the final positions."""
        forces = self.forces
        for s in range(self.substeps):
            forces.zero_()  # expect: overwrite
            wp.launch(chain_springs, dim=self.n - 1, inputs=[self.xs[s], self.vs[s], self.seg, coeffs],
                      outputs=[forces])
            wp.launch(step_particles, dim=self.n,
                      inputs=[self.xs[s], self.vs[s], forces, self.inv_mass, anchor_vel, self.dt],
                      outputs=[self.xs[s + 1], self.vs[s + 1]])
        return self.xs[-1]
