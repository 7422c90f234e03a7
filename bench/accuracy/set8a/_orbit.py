"""Planar two-body orbit with thin atmospheric drag (nondimensional units)."""
import warp as wp


@wp.kernel
def orbit_step(x: wp.array(dtype=wp.vec2d), v: wp.array(dtype=wp.vec2d), mu: wp.float64, drag: wp.float64,
               dt: wp.float64, x_out: wp.array(dtype=wp.vec2d), v_out: wp.array(dtype=wp.vec2d)):
    i = wp.tid()
    r = wp.length(x[i])
    a = -mu * x[i] / (r * r * r) - drag * wp.exp(-(r - wp.float64(1.0)) * wp.float64(8.0)) * wp.length(v[i]) * v[i]
    vn = v[i] + dt * a
    v_out[i] = vn
    x_out[i] = x[i] + dt * vn


@wp.kernel
def rendezvous(x: wp.array(dtype=wp.vec2d), target: wp.vec2d, loss: wp.array(dtype=wp.float64)):
    d = x[0] - target
    loss[0] = wp.dot(d, d)


@wp.kernel
def set_state(p: wp.array(dtype=wp.float64), x: wp.array(dtype=wp.vec2d), v: wp.array(dtype=wp.vec2d)):
    x[0] = wp.vec2d(wp.float64(1.1), wp.float64(0.0))
    v[0] = wp.vec2d(p[0], p[1])
