import warp as wp


@wp.struct
class BodyState:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)


@wp.kernel
def drag_step(s_in: BodyState, drag: wp.array(dtype=wp.float32), dt: wp.float32, s_out: BodyState):
    i = wp.tid()
    v = s_in.vel[i]
    a = wp.vec3(0.0, -9.8, 0.0) - drag[0] * wp.length(v) * v
    v_new = v + a * dt
    s_out.vel[i] = v_new
    s_out.pos[i] = s_in.pos[i] + v_new * dt


@wp.kernel
def landing_error(s: BodyState, target: wp.array(dtype=wp.vec3), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    d = s.pos[i] - target[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def make_state(pos, vel):
    s = BodyState()
    s.pos = wp.array(pos, dtype=wp.vec3, requires_grad=True)
    s.vel = wp.array(vel, dtype=wp.vec3, requires_grad=True)
    return s
