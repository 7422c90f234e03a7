"""Javelin flight aerodynamics from high-speed-video marker tracks.

Four competition throws are integrated with drag and lift (point-mass model,
positions and velocities as wp.vec3, javelin properties in a @wp.struct).
Drag and lift coefficients are fitted to the tracked centre-of-mass positions
over the first 0.8 s of flight. States are cycled through a small ring of
buffers on one tape.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_THROW = 4
N_STEPS = 40
DT = 0.02
RING = 3  # expect: ring_buffer


@wp.struct
class Javelin:
    mass: float
    area: float
    rho_air: float


@wp.kernel
def flight_step(jav: Javelin, coef: wp.array(dtype=float), pos: wp.array(dtype=wp.vec3), vel: wp.array(dtype=wp.vec3),
                pos_next: wp.array(dtype=wp.vec3), vel_next: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v = vel[i]
    speed = wp.length(v)
    q = 0.5 * jav.rho_air * jav.area * speed / jav.mass
    lift_dir = wp.cross(wp.vec3(0.0, 1.0, 0.0), v)
    acc = wp.vec3(0.0, 0.0, -9.81) - q * coef[0] * v + q * coef[1] * lift_dir
    v_new = v + DT * acc
    vel_next[i] = v_new
    pos_next[i] = pos[i] + DT * v_new


@wp.kernel
def track_misfit(pos: wp.array(dtype=wp.vec3), track: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = pos[i] - track[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


JAV = Javelin()
JAV.mass, JAV.area, JAV.rho_air = 0.8, 0.012, 1.2
V0 = np.array([[25.0, 0.0, 17.0], [27.0, 0.5, 16.0], [24.0, -0.4, 19.0], [28.0, 0.2, 15.0]])


def simulate64(cd, cl):
    p, v, out = np.zeros((N_THROW, 3)), V0.copy(), []
    for t in range(N_STEPS):
        sp = np.linalg.norm(v, axis=1, keepdims=True)
        q = 0.5 * 1.2 * 0.012 * sp / 0.8
        lift = np.cross(np.array([0.0, 1.0, 0.0]), v)
        v = v + DT * (np.array([0, 0, -9.81]) - q * cd * v + q * cl * lift)
        p = p + DT * v
        out.append(p.copy())
    return out


TRACK = [wp.array(x, dtype=wp.vec3) for x in simulate64(0.9, 0.6)]


def evaluate(c):
    coef = wp.array(np.asarray(c, dtype=np.float32), dtype=float, requires_grad=True)
    pos = [wp.zeros(N_THROW, dtype=wp.vec3, requires_grad=True) for _ in range(RING)]
    vel = [wp.zeros(N_THROW, dtype=wp.vec3, requires_grad=True) for _ in range(RING)]
    vel[0].assign(V0)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for t in range(N_STEPS):
            a, b = t % RING, (t + 1) % RING
            wp.launch(flight_step, dim=N_THROW, inputs=[JAV, coef, pos[a], vel[a]], outputs=[pos[b], vel[b]])
            wp.launch(track_misfit, dim=N_THROW, inputs=[pos[b], TRACK[t]], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), coef.grad.numpy().copy()


PARAMS0 = [0.7, 0.45]
FD_EPS = 1e-3

if __name__ == "__main__":
    c = np.array(PARAMS0)
    for it in range(20):
        l, g = evaluate(c)
        c -= 0.05 * g / (np.linalg.norm(g) + 1e-9)
    print(f"track misfit {l:.5f}  C_D = {c[0]:.3f}  C_L = {c[1]:.3f}")
