"""Free rigid-body integration helpers (quaternions, transforms).

Orientation is a unit quaternion in a wp.transform; angular velocity is kept
in the body frame and advanced with Euler's equations (explicit), the
quaternion with q' = q + dt/2 * q * (w, 0), renormalised.
"""
import warp as wp


@wp.func
def euler_rhs(w: wp.vec3, inertia: wp.vec3):
    Iw = wp.cw_mul(inertia, w)
    return wp.cw_div(-wp.cross(w, Iw), inertia)


@wp.func
def quat_advance(q: wp.quat, w_body: wp.vec3, dt: float):
    dq = q * wp.quat(w_body[0], w_body[1], w_body[2], 0.0)
    q1 = wp.quat(q[0] + 0.5 * dt * dq[0], q[1] + 0.5 * dt * dq[1], q[2] + 0.5 * dt * dq[2], q[3] + 0.5 * dt * dq[3])
    return wp.normalize(q1)


@wp.kernel
def integrate_bodies(
    X: wp.array(dtype=wp.transform),
    v: wp.array(dtype=wp.vec3),
    w: wp.array(dtype=wp.vec3),
    inertia: wp.array(dtype=wp.vec3),
    gravity: wp.vec3,
    dt: float,
    X_out: wp.array(dtype=wp.transform),
    v_out: wp.array(dtype=wp.vec3),
    w_out: wp.array(dtype=wp.vec3),
):
    b = wp.tid()
    x = wp.transform_get_translation(X[b])
    q = wp.transform_get_rotation(X[b])
    w1 = w[b] + dt * euler_rhs(w[b], inertia[b])
    v1 = v[b] + dt * gravity
    w_out[b] = w1
    v_out[b] = v1
    X_out[b] = wp.transform(x + dt * v1, quat_advance(q, w1, dt))


@wp.kernel
def marker_loss(
    X: wp.array(dtype=wp.transform),
    markers: wp.array(dtype=wp.vec3),
    targets: wp.array(dtype=wp.vec3),
    loss: wp.array(dtype=float),
):
    k = wp.tid()
    p = wp.transform_point(X[0], markers[k])
    d = p - targets[k]
    wp.atomic_add(loss, 0, wp.dot(d, d))
