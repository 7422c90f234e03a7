import warp as wp


@wp.struct
class Bodies:
    pos: wp.array(dtype=wp.vec3)
    vel: wp.array(dtype=wp.vec3)


@wp.kernel
def integrate_bodies(src: Bodies, spring: wp.array(dtype=wp.float32), dt: wp.float32, dst: Bodies):
    i = wp.tid()
    p = src.pos[i]
    v = src.vel[i]
    f = -spring[0] * p * wp.length(p) - 0.1 * v
    vn = v + f * dt
    dst.vel[i] = vn
    dst.pos[i] = p + vn * dt


def new_bodies(n, pos=None):
    b = Bodies()
    b.pos = wp.zeros(n, dtype=wp.vec3, requires_grad=True) if pos is None else wp.array(pos, dtype=wp.vec3, requires_grad=True)
    b.vel = wp.zeros(n, dtype=wp.vec3, requires_grad=True)
    return b
