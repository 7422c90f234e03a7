"""Trajectory storage for the projectile-fitting program (b07).

One buffer set per time step, so the whole flight can be replayed and
plotted: positions, velocities and the aerodynamic force acting at that step.
"""
import warp as wp


class Trajectory:
    def __init__(self, n, steps):
        self.n = n
        self.steps = steps
        self.x = [wp.zeros(n, dtype=wp.vec3, requires_grad=True) for _ in range(steps + 1)]
        self.v = [wp.zeros(n, dtype=wp.vec3, requires_grad=True) for _ in range(steps + 1)]
        self.f_aero = [wp.zeros(n, dtype=wp.vec3) for _ in range(steps)]  # expect: requires_grad

    def final_positions(self):
        return self.x[-1]
