"""Particles poured onto a spherical obstacle: choose the pour velocity so
the grains end up, on average, at a target spot after bouncing off it.

Contact handling is split in a narrow phase that writes a compact contact
list (particle index, penetration depth) and a force pass over that list.
"""
import numpy as np
import warp as wp

N = 12
STEPS = 50
DT = 0.004
RADIUS = 0.03
SPHERE_C = wp.constant(wp.vec3(0.0, 0.0, 0.0))
SPHERE_R = 0.25
K_CONTACT = 4000.0


@wp.kernel
def narrow_phase(x: wp.array(dtype=wp.vec3), contact_count: wp.array(dtype=wp.int32),
                 contact_particle: wp.array(dtype=wp.int32), contact_depth: wp.array(dtype=float)):
    i = wp.tid()
    depth = SPHERE_R + RADIUS - wp.length(x[i] - SPHERE_C)
    if depth > 0.0:
        slot = wp.atomic_add(contact_count, 0, 1)  # expect: atomic_replay
        contact_particle[slot] = i
        contact_depth[slot] = depth


@wp.kernel
def contact_forces(x: wp.array(dtype=wp.vec3), contact_particle: wp.array(dtype=wp.int32),
                   contact_depth: wp.array(dtype=float), f: wp.array(dtype=wp.vec3)):
    s = wp.tid()
    depth = contact_depth[s]
    if depth > 0.0:
        i = contact_particle[s]
        n = wp.normalize(x[i] - SPHERE_C)
        wp.atomic_add(f, i, K_CONTACT * depth * n)


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), f: wp.array(dtype=wp.vec3), dt: float,
              x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v1 = 0.998 * v[i] + (f[i] + wp.vec3(0.0, -9.81, 0.0)) * dt
    v_out[i] = v1
    x_out[i] = x[i] + v1 * dt


@wp.kernel
def set_velocity(pour: wp.array(dtype=float), v: wp.array(dtype=wp.vec3)):
    v[wp.tid()] = wp.vec3(pour[0], -1.0, pour[1])


@wp.kernel
def spot_loss(x: wp.array(dtype=wp.vec3), spot: wp.vec3, loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - spot
    wp.atomic_add(loss, 0, wp.dot(d, d) / float(N))


rng = np.random.default_rng(11)
X0 = np.stack([rng.uniform(-0.08, 0.08, N), 0.3 + rng.uniform(0.0, 0.05, N), rng.uniform(-0.08, 0.08, N)], 1)
X0 = X0.astype(np.float32)
SPOT = wp.vec3(0.3, 0.1, 0.1)
contacts_per_step = []


def evaluate(p):
    pour = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(X0, dtype=wp.vec3, requires_grad=True)
    v = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    counts = []
    tape = wp.Tape()
    with tape:
        wp.launch(set_velocity, dim=N, inputs=[pour], outputs=[v])
        for _ in range(STEPS):
            count = wp.zeros(1, dtype=wp.int32)
            c_particle = wp.zeros(N, dtype=wp.int32)
            c_depth = wp.zeros(N, dtype=float, requires_grad=True)
            wp.launch(narrow_phase, dim=N, inputs=[x], outputs=[count, c_particle, c_depth])
            f = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
            wp.launch(contact_forces, dim=N, inputs=[x, c_particle, c_depth], outputs=[f])
            x1, v1 = wp.empty_like(x), wp.empty_like(v)
            wp.launch(integrate, dim=N, inputs=[x, v, f, DT], outputs=[x1, v1])
            x, v = x1, v1
            counts.append(count)
        wp.launch(spot_loss, dim=N, inputs=[x, SPOT], outputs=[loss])
    tape.backward(loss)
    contacts_per_step[:] = [int(c.numpy()[0]) for c in counts]
    return float(loss.numpy()[0]), pour.grad.numpy().copy()


PARAMS0 = np.array([0.6, 0.2])
FD_EPS = 1e-3

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("loss", l, "grad", g, "max contacts in a step", max(contacts_per_step))
