"""Graded-index fibre lens: paraxial ray transfer through the profile
n(r)^2 = n0^2 (1 - (g r)^2 + h (g r)^4), one symplectic-Euler step per slice."""
import warp as wp


@wp.kernel
def grin_slice(s: wp.array(dtype=wp.vec2), prm: wp.array(dtype=float), dz: float, s_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    r = s[i][0]
    u = s[i][1]
    g = prm[0]
    h = prm[1]
    gr = g * r
    # r'' = (1 / 2 n0^2) d(n^2)/dr
    force = -g * gr + 2.0 * h * g * gr * gr * gr
    u_new = u + dz * force
    s_out[i] = wp.vec2(r + dz * u_new, u_new)


@wp.kernel
def spot_size(s: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = s[i][0]
    wp.atomic_add(loss, 0, r * r / float(s.shape[0]))
