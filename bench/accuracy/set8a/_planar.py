"""Planar rigid-body state and thruster kernels."""
import warp as wp


@wp.struct
class Body2D:
    pos: wp.array(dtype=wp.vec2d)
    vel: wp.array(dtype=wp.vec2d)
    ang: wp.array(dtype=wp.float64)
    omega: wp.array(dtype=wp.float64)


def alloc_body(n, requires_grad=True):
    b = Body2D()
    b.pos = wp.zeros(n, dtype=wp.vec2d, requires_grad=requires_grad)
    b.vel = wp.zeros(n, dtype=wp.vec2d, requires_grad=requires_grad)
    b.ang = wp.zeros(n, dtype=wp.float64, requires_grad=requires_grad)
    b.omega = wp.zeros(n, dtype=wp.float64, requires_grad=requires_grad)
    return b


@wp.kernel
def thruster_wrench(ang: wp.array(dtype=wp.float64), thrust: wp.array(dtype=wp.float64),
                    arm: wp.array(dtype=wp.float64),
                    force: wp.array(dtype=wp.vec2d), torque: wp.array(dtype=wp.float64)):
    i = wp.tid()
    tl = thrust[2 * i]
    tr = thrust[2 * i + 1]
    up = wp.vec2d(-wp.sin(ang[i]), wp.cos(ang[i]))
    force[i] = (tl + tr) * up
    torque[i] = (tr - tl) * arm[i]


@wp.kernel
def integrate_body(pos: wp.array(dtype=wp.vec2d), vel: wp.array(dtype=wp.vec2d),
                   ang: wp.array(dtype=wp.float64), omega: wp.array(dtype=wp.float64),
                   force: wp.array(dtype=wp.vec2d), torque: wp.array(dtype=wp.float64),
                   mass: wp.float64, inertia: wp.float64, dt: wp.float64,
                   pos_out: wp.array(dtype=wp.vec2d), vel_out: wp.array(dtype=wp.vec2d),
                   ang_out: wp.array(dtype=wp.float64), omega_out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    g = wp.vec2d(wp.float64(0.0), wp.float64(-9.81))
    v = vel[i] + dt * (force[i] / mass + g)
    w = omega[i] + dt * torque[i] / inertia
    vel_out[i] = v
    omega_out[i] = w
    pos_out[i] = pos[i] + dt * v
    ang_out[i] = ang[i] + dt * w
