"""Axis-aligned box boundaries for particle simulations."""
import warp as wp


@wp.kernel(enable_backward=False)  # expect: adjoint_disabled
def reflect_walls(x: wp.array(dtype=wp.vec2d), v: wp.array(dtype=wp.vec2d), lo: wp.vec2d, hi: wp.vec2d,
                  restitution: wp.array(dtype=wp.float64),
                  x_out: wp.array(dtype=wp.vec2d), v_out: wp.array(dtype=wp.vec2d)):
    i = wp.tid()
    p = x[i]
    u = v[i]
    e = restitution[0]
    px = p[0]
    py = p[1]
    ux = u[0]
    uy = u[1]
    if px < lo[0]:
        px = wp.float64(2.0) * lo[0] - px
        ux = -e * ux
    if px > hi[0]:
        px = wp.float64(2.0) * hi[0] - px
        ux = -e * ux
    if py < lo[1]:
        py = wp.float64(2.0) * lo[1] - py
        uy = -e * uy
    if py > hi[1]:
        py = wp.float64(2.0) * hi[1] - py
        uy = -e * uy
    x_out[i] = wp.vec2d(px, py)
    v_out[i] = wp.vec2d(ux, uy)


@wp.kernel
def ballistic_drift(x: wp.array(dtype=wp.vec2d), v: wp.array(dtype=wp.vec2d), dt: wp.float64,
                    x_out: wp.array(dtype=wp.vec2d), v_out: wp.array(dtype=wp.vec2d)):
    i = wp.tid()
    vn = v[i] + dt * wp.vec2d(wp.float64(0.0), wp.float64(-9.81))
    v_out[i] = vn
    x_out[i] = x[i] + dt * vn
