"""Kinematic bicycle model used by the car programs."""
import warp as wp

DT = wp.constant(0.05)
WHEELBASE = wp.constant(2.5)


@wp.func
def bicycle(s: wp.vec4, accel: float, steer: float):
    # s = (x, y, heading, speed)
    x = s[0] + DT * s[3] * wp.cos(s[2])
    y = s[1] + DT * s[3] * wp.sin(s[2])
    h = s[2] + DT * s[3] * wp.tan(steer) / WHEELBASE
    v = s[3] + DT * accel
    return wp.vec4(x, y, h, v)


@wp.kernel
def car_step(states: wp.array2d(dtype=wp.vec4), ctrl: wp.array2d(dtype=wp.vec2), t: int):
    i = wp.tid()
    u = ctrl[t, i]
    states[t + 1, i] = bicycle(states[t, i], u[0], u[1])


@wp.kernel
def lane_cost(states: wp.array2d(dtype=wp.vec4), t: int, lane_y: float, v_ref: float, cost: wp.array(dtype=float)):
    i = wp.tid()
    s = states[t, i]
    dy = s[1] - lane_y
    dv = s[3] - v_ref
    wp.atomic_add(cost, 0, dy * dy + 0.1 * dv * dv + 0.5 * s[2] * s[2])
