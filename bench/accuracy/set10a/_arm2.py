"""Planar two-link arm (torque schedule stored flat: u[2 * knot + joint]): joint dynamics and forward kinematics kernels.

Shared by the arm-control programs. Joint-space dynamics are simplified
(diagonal inertia, viscous joint friction, gravity torque from each link's
own angle) so that one thread advances one joint.
"""
import warp as wp

LINK_LEN = wp.constant(wp.vec2(0.5, 0.4))
LINK_INERTIA = wp.constant(wp.vec2(0.3, 0.12))
GRAV_TORQUE = wp.constant(wp.vec2(2.0, 0.8))
FRICTION = 0.4


@wp.kernel
def joint_step(
    q: wp.array(dtype=float),
    qd: wp.array(dtype=float),
    u: wp.array(dtype=float),
    knot: int,
    dt: float,
    q_out: wp.array(dtype=float),
    qd_out: wp.array(dtype=float),
):
    j = wp.tid()
    angle = q[0]
    if j == 1:
        angle = q[0] + q[1]
    tau = u[2 * knot + j] - GRAV_TORQUE[j] * wp.cos(angle) - FRICTION * qd[j]
    v = qd[j] + dt * tau / LINK_INERTIA[j]
    qd_out[j] = v
    q_out[j] = q[j] + dt * v


@wp.func
def end_effector(q0: float, q1: float):
    return wp.vec2(LINK_LEN[0] * wp.cos(q0) + LINK_LEN[1] * wp.cos(q0 + q1),
                   LINK_LEN[0] * wp.sin(q0) + LINK_LEN[1] * wp.sin(q0 + q1))


@wp.kernel
def reach_loss(q: wp.array(dtype=float), u: wp.array(dtype=float), target: wp.vec2, effort: float,
               loss: wp.array(dtype=float)):
    k = wp.tid()
    if k == 0:
        d = end_effector(q[0], q[1]) - target
        wp.atomic_add(loss, 0, wp.dot(d, d))
    wp.atomic_add(loss, 0, effort * u[k] * u[k])
