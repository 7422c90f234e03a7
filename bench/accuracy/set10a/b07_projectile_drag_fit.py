"""Estimate the drag coefficient and the muzzle speed of a batch of balls
from where they land (quadratic air drag + Magnus-free ballistic flight)."""
import numpy as np
import warp as wp

from _particle_buffers import Trajectory

N_BALLS = 4
STEPS = 50
DT = 0.01


@wp.kernel
def launch_velocity(dirs: wp.array(dtype=wp.vec3), params: wp.array(dtype=float), v0: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v0[i] = params[1] * wp.normalize(dirs[i])


@wp.kernel
def aero_force(v: wp.array(dtype=wp.vec3), params: wp.array(dtype=float), radius: wp.array(dtype=float),
               f: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    vel = v[i]
    r = radius[i]
    # 0.5 rho Cd A |v| v with rho = 1.2
    f[i] = -0.6 * params[0] * 3.14159 * r * r * wp.length(vel) * vel


@wp.kernel
def ballistic_step(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3),
                   mass: wp.array(dtype=float), dt: float,
                   x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v1 = v[i] + (f[i] / mass[i] + wp.vec3(0.0, -9.81, 0.0)) * dt
    v_out[i] = v1
    x_out[i] = x[i] + v1 * dt


@wp.kernel
def landing_misfit(x: wp.array(dtype=wp.vec3), observed: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - observed[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


dirs = wp.array([[1.0, 1.0, 0.0], [1.0, 0.8, 0.1], [1.0, 1.2, -0.1], [0.9, 1.0, 0.3]], dtype=wp.vec3)
radius = wp.array([0.11, 0.11, 0.035, 0.035], dtype=float)
mass = wp.array([0.45, 0.45, 0.058, 0.058], dtype=float)
observed = wp.array([[9.0, 0.5, 0.0], [9.5, 0.2, 0.9], [8.0, 1.0, -0.8], [7.5, 0.6, 2.4]], dtype=wp.vec3)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    traj = Trajectory(N_BALLS, STEPS)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(launch_velocity, dim=N_BALLS, inputs=[dirs, params], outputs=[traj.v[0]])
        for s in range(STEPS):
            wp.launch(aero_force, dim=N_BALLS, inputs=[traj.v[s], params, radius], outputs=[traj.f_aero[s]])
            wp.launch(ballistic_step, dim=N_BALLS, inputs=[traj.x[s], traj.v[s], traj.f_aero[s], mass, DT],
                      outputs=[traj.x[s + 1], traj.v[s + 1]])
        wp.launch(landing_misfit, dim=N_BALLS, inputs=[traj.final_positions(), observed], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().copy()


PARAMS0 = np.array([0.47, 12.0])
FD_EPS = [0.002, 0.01]

if __name__ == "__main__":
    p = PARAMS0.copy()
    l, g = evaluate(p)
    print(f"misfit {l:.4f}  d/dCd {g[0]:.4f}  d/dspeed {g[1]:.4f}")
