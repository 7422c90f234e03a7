"""Explicit integrators and collision responses for vertical ball drops."""
import warp as wp


@wp.kernel
def semi_implicit(h: wp.array(dtype=wp.float64), v: wp.array(dtype=wp.float64), coef: wp.array(dtype=wp.float64),
                  dt: wp.float64, h_out: wp.array(dtype=wp.float64), v_out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    a = wp.float64(-9.81) - coef[1] * v[i] * wp.abs(v[i])
    vn = v[i] + dt * a
    v_out[i] = vn
    h_out[i] = h[i] + dt * vn


@wp.kernel
def ground_bounce(h: wp.array(dtype=wp.float64), v: wp.array(dtype=wp.float64), coef: wp.array(dtype=wp.float64)):
    i = wp.tid()
    if h[i] < wp.float64(0.0) and v[i] < wp.float64(0.0):
        v[i] *= -coef[0]  # expect: inplace_op


@wp.kernel
def height_misfit(h: wp.array(dtype=wp.float64), measured: wp.array(dtype=wp.float64), loss: wp.array(dtype=wp.float64)):
    i = wp.tid()
    r = h[i] - measured[i]
    wp.atomic_add(loss, 0, r * r)
