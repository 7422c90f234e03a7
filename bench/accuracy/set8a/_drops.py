"""Split integrator and ground response for vertical ball drops."""
import warp as wp


@wp.kernel
def gravity_kick(v: wp.array(dtype=wp.float64), dt: wp.float64):
    i = wp.tid()
    v[i] += dt * wp.float64(-9.81)


@wp.kernel
def drag_drift(h: wp.array(dtype=wp.float64), v: wp.array(dtype=wp.float64), coef: wp.array(dtype=wp.float64),
               dt: wp.float64, h_out: wp.array(dtype=wp.float64), v_out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    vn = v[i] - dt * coef[1] * v[i] * wp.abs(v[i])
    v_out[i] = vn
    h_out[i] = h[i] + dt * vn


@wp.kernel
def ground_bounce(h: wp.array(dtype=wp.float64), v: wp.array(dtype=wp.float64), coef: wp.array(dtype=wp.float64),
                  v_out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    vi = v[i]
    if h[i] < wp.float64(0.0) and vi < wp.float64(0.0):
        vi = -coef[0] * vi
    v_out[i] = vi


@wp.kernel
def height_misfit(h: wp.array(dtype=wp.float64), measured: wp.array(dtype=wp.float64), loss: wp.array(dtype=wp.float64)):
    i = wp.tid()
    r = h[i] - measured[i]
    wp.atomic_add(loss, 0, r * r)
