"""Particle-ground contact: a compacted contact list, then force application."""
import warp as wp

DT = wp.constant(0.01)
MARGIN = wp.constant(0.05)
KE = wp.constant(3000.0)


@wp.func
def ground_force(p: wp.vec3, v: wp.vec3):
    gap = MARGIN - p[2]
    fn = KE * gap * gap
    ft = -0.5 * fn * wp.vec3(wp.tanh(v[0] / 0.3), wp.tanh(v[1] / 0.3), 0.0)
    return ft + wp.vec3(0.0, 0.0, fn)


@wp.kernel
def apply_contacts(idx: wp.array(dtype=int), force: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    k = wp.tid()
    wp.atomic_add(v_out, idx[k], DT * force[k])


@wp.kernel
def free_flight(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v_out[i] = v[i] + DT * wp.vec3(0.0, 0.0, -9.81)


@wp.kernel
def advance(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), x_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x_out[i] = x[i] + DT * v[i]
