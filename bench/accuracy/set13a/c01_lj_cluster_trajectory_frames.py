# correct: wp.copy runs on the tape every step, but only into rows of a trajectory buffer that no launch has read; the state itself is rebound to fresh arrays.
"""Argon-like LJ cluster (8 atoms, reduced units): sensitivity of the time-averaged
radius of gyration over a short velocity-Verlet NVE run to epsilon and sigma.

Every step's positions are saved into a 2-D trajectory buffer with wp.copy on the
tape; the integrator state moves to freshly allocated arrays each step.
"""
import numpy as np
import warp as wp

from _lj import cube_cluster, lj_forces_open

DT = 0.004
N_STEPS = 30


@wp.kernel
def vv_drift(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3), dt: float,
             x_out: wp.array(dtype=wp.vec3), v_half: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    vh = v[i] + 0.5 * dt * f[i]
    v_half[i] = vh
    x_out[i] = x[i] + dt * vh


@wp.kernel
def vv_kick(v_half: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3), dt: float, v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v_out[i] = v_half[i] + 0.5 * dt * f[i]


@wp.kernel
def mean_rg2(traj: wp.array2d(dtype=wp.vec3), rg2: wp.array(dtype=float)):
    t, i = wp.tid()
    n = traj.shape[1]
    com = wp.vec3()
    for j in range(n):
        com += traj[t, j]
    com = com / float(n)
    d = traj[t, i] - com
    wp.atomic_add(rg2, 0, wp.dot(d, d) / float(n * traj.shape[0]))


class NVECluster:
    def __init__(self, x0, v0, ff):
        self.n = x0.shape[0]
        self.ff = ff
        self.x = wp.array(x0, dtype=wp.vec3, requires_grad=True)
        self.v = wp.array(v0, dtype=wp.vec3, requires_grad=True)

    def forces(self, x):
        f = wp.zeros(self.n, dtype=wp.vec3, requires_grad=True)
        wp.launch(lj_forces_open, dim=self.n, inputs=[x, self.ff], outputs=[f])
        return f

    def step(self):
        f = self.forces(self.x)
        x_new = wp.empty_like(self.x)
        v_half = wp.empty_like(self.v)
        wp.launch(vv_drift, dim=self.n, inputs=[self.x, self.v, f, DT], outputs=[x_new, v_half])
        f_new = self.forces(x_new)
        v_new = wp.empty_like(self.v)
        wp.launch(vv_kick, dim=self.n, inputs=[v_half, f_new, DT], outputs=[v_new])
        self.x, self.v = x_new, v_new


X0 = cube_cluster(2, 1.12, 0.05, seed=3)
V0 = (0.3 * np.random.default_rng(4).standard_normal(X0.shape)).astype(np.float32)
V0 -= V0.mean(axis=0)
PARAMS0 = np.array([1.0, 1.0])  # epsilon, sigma
FD_EPS = 1e-3


def evaluate(p):
    ff = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    md = NVECluster(X0, V0, ff)
    traj = wp.zeros((N_STEPS, md.n), dtype=wp.vec3, requires_grad=True)
    rg2 = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for s in range(N_STEPS):
            md.step()
            wp.copy(traj[s], md.x)
        wp.launch(mean_rg2, dim=(N_STEPS, md.n), inputs=[traj], outputs=[rg2])
    tape.backward(rg2)
    return float(rg2.numpy()[0]), ff.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    rg2, g = evaluate(PARAMS0)
    print(f"<Rg^2> over {N_STEPS} steps = {rg2:.5f}; d<Rg^2>/d(eps, sigma) = {g}")
