"""Operational-space PD control of a planar two-link arm."""
import warp as wp

L1 = wp.constant(0.6)
L2 = wp.constant(0.5)
MG = wp.constant(2.0)


@wp.func
def tip(q: wp.vec2):
    return wp.vec2(L1 * wp.cos(q[0]) + L2 * wp.cos(q[0] + q[1]), L1 * wp.sin(q[0]) + L2 * wp.sin(q[0] + q[1]))


@wp.func
def jacobian(q: wp.vec2):
    s1 = wp.sin(q[0])
    c1 = wp.cos(q[0])
    s12 = wp.sin(q[0] + q[1])
    c12 = wp.cos(q[0] + q[1])
    return wp.mat22(-L1 * s1 - L2 * s12, -L2 * s12, L1 * c1 + L2 * c12, L2 * c12)


@wp.func
def task_force(q: wp.vec2, qd: wp.vec2, goal: wp.vec2, kp: float, kd: float):
    J = jacobian(q)
    f = kp * (goal - tip(q)) - kd * (J * qd)
    f[1] += MG
    return wp.transpose(J) * f
