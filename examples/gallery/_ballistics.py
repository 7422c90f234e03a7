"""State containers and kernels for the drag-ballistics example."""

import warp as wp


@wp.struct
class BodyState:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)


def make_state(rest_positions: wp.array) -> BodyState:
    s = BodyState()
    s.pos = wp.zeros(rest_positions.shape[0], dtype=wp.vec3, requires_grad=True)
    wp.copy(s.pos, rest_positions)
    s.vel = wp.empty_like(rest_positions)  # expect: TW201
    s.vel.zero_()
    return s


@wp.kernel
def launch_velocity(
    speed: wp.array(dtype=float),
    elevation: wp.array(dtype=float),
    heading: wp.array(dtype=float),
    state: BodyState,
):
    i = wp.tid()
    c = wp.cos(elevation[i])
    state.vel[i] = speed[i] * wp.vec3(c * wp.cos(heading[i]), wp.sin(elevation[i]), c * wp.sin(heading[i]))


@wp.kernel
def drag_step(
    cur: BodyState,
    drag: float,
    dt: float,
    nxt: BodyState,
):
    i = wp.tid()
    v = cur.vel[i]
    a = wp.vec3(0.0, -9.81, 0.0) - drag * wp.length(v) * v
    v_new = v + dt * a
    nxt.vel[i] = v_new
    nxt.pos[i] = cur.pos[i] + dt * v_new
