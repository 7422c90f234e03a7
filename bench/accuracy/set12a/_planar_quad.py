"""Planar (2-D) quadrotor: state (y, z, phi, vy, vz, omega) kept as two vec3 arrays."""
import warp as wp

DT = wp.constant(0.02)
ARM = wp.constant(0.15)
MASS = wp.constant(0.6)
INERTIA = wp.constant(0.004)


@wp.kernel
def mixer(rotor: wp.array(dtype=wp.vec2), t: int, wrench: wp.array(dtype=wp.vec2)):
    # rotor[t] = (left, right) thrusts -> (collective thrust, torque)
    r = rotor[t]
    wrench[0] = wp.vec2(r[0] + r[1], ARM * (r[1] - r[0]))


@wp.kernel
def planar_step(q: wp.array(dtype=wp.vec3), qd: wp.array(dtype=wp.vec3), wrench: wp.array(dtype=wp.vec2),
                q_out: wp.array(dtype=wp.vec3), qd_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    s = q[i]
    w = wrench[0]
    acc = wp.vec3(-w[0] * wp.sin(s[2]) / MASS, w[0] * wp.cos(s[2]) / MASS - 9.81, w[1] / INERTIA)
    v = qd[i] + DT * acc
    qd_out[i] = v
    q_out[i] = s + DT * v


@wp.kernel
def gate_cost(q: wp.array(dtype=wp.vec3), qd: wp.array(dtype=wp.vec3), gate: wp.vec3, cost: wp.array(dtype=float)):
    i = wp.tid()
    d = q[i] - gate
    wp.atomic_add(cost, 0, wp.dot(d, d) + 0.01 * wp.dot(qd[i], qd[i]))
