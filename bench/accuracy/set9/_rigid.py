"""Small rigid-body toolkit: torque-free rotation of bodies with diagonal inertia."""

import warp as wp


@wp.struct
class BodyState:
    q: wp.array(dtype=wp.quat)
    w: wp.array(dtype=wp.vec3)


def make_state(n, requires_grad=True):
    s = BodyState()
    s.q = wp.zeros(n, dtype=wp.quat, requires_grad=requires_grad)
    s.w = wp.zeros(n, dtype=wp.vec3, requires_grad=requires_grad)
    return s


@wp.kernel
def init_bodies(w0: wp.array(dtype=wp.vec3), s: BodyState):
    b = wp.tid()
    s.q[b] = wp.quat_identity()
    s.w[b] = w0[0]


@wp.kernel
def integrate_bodies(
    s_in: BodyState,
    inertia: wp.array(dtype=wp.mat33),
    damping: float,
    dt: float,
    s_out: BodyState,
):
    b = wp.tid()
    q = s_in.q[b]
    w = s_in.w[b]
    I = inertia[b]
    # Euler's equations in the body frame
    w_dot = wp.inverse(I) * (-wp.cross(w, I * w)) - damping * w
    w1 = w + dt * w_dot
    dq = q * wp.quat(w1, 0.0)
    q1 = wp.normalize(q + dq * (0.5 * dt))
    s_out.q[b] = q1
    s_out.w[b] = w1


@wp.kernel
def heading_loss(s: BodyState, axis: wp.vec3, target: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    b = wp.tid()
    d = wp.quat_rotate(s.q[b], axis) - target[b]
    wp.atomic_add(loss, 0, wp.dot(d, d))
