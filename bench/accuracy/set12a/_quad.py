"""Small quadrotor model: thrust along the body z axis, attitude from roll/pitch/yaw commands."""
import warp as wp

DT = wp.constant(0.02)
GRAVITY = wp.constant(wp.vec3(0.0, 0.0, -9.81))
MASS = wp.constant(0.5)
DRAG = wp.constant(0.08)


@wp.func
def ground_effect(z: float):
    return 1.0 + 0.6 * wp.exp(-z / 0.25)


@wp.func
def body_accel(p: wp.vec3, v: wp.vec3, u: wp.vec4):
    q = wp.quat_rpy(u[1], u[2], u[3])
    thrust = wp.quat_rotate(q, wp.vec3(0.0, 0.0, u[0] * ground_effect(p[2]) / MASS))
    return thrust + GRAVITY - DRAG * wp.length(v) * v


@wp.kernel
def quad_step_rows(
    pos: wp.array2d(dtype=wp.vec3),
    vel: wp.array2d(dtype=wp.vec3),
    ctrl: wp.array(dtype=wp.vec4),
    t: int,
):
    i = wp.tid()
    p = pos[t, i]
    v = vel[t, i]
    a = body_accel(p, v, ctrl[0])
    v1 = v + DT * a
    vel[t + 1, i] = v1
    pos[t + 1, i] = p + DT * v1


@wp.kernel
def quad_step(
    pos: wp.array(dtype=wp.vec3),
    vel: wp.array(dtype=wp.vec3),
    ctrl: wp.array(dtype=wp.vec4),
    pos_out: wp.array(dtype=wp.vec3),
    vel_out: wp.array(dtype=wp.vec3),
):
    i = wp.tid()
    a = body_accel(pos[i], vel[i], ctrl[0])
    v1 = vel[i] + DT * a
    vel_out[i] = v1
    pos_out[i] = pos[i] + DT * v1


@wp.kernel
def target_cost(pos: wp.array(dtype=wp.vec3), target: wp.vec3, cost: wp.array(dtype=float)):
    i = wp.tid()
    d = pos[i] - target
    wp.atomic_add(cost, 0, wp.dot(d, d))
