"""Meridional exact ray tracing through spherical surfaces (z along the axis, y up)."""
import warp as wp


@wp.func
def hit_sphere(p: wp.vec2, d: wp.vec2, z_v: float, c: float):
    """Distance along unit direction d from p to the surface of vertex z_v and curvature c."""
    q = p - wp.vec2(z_v, 0.0)
    b = c * wp.dot(q, d) - d[0]
    cc = c * wp.dot(q, q) - 2.0 * q[0]
    return cc / (-b + wp.sqrt(b * b - c * cc))


@wp.func
def surface_normal(p: wp.vec2, z_v: float, c: float):
    return wp.normalize(wp.vec2(1.0 - c * (p[0] - z_v), -c * p[1]))


@wp.func
def refract(d: wp.vec2, n: wp.vec2, eta: float):
    cos_i = wp.dot(n, d)
    k = 1.0 - eta * eta * (1.0 - cos_i * cos_i)
    return eta * d + (wp.sqrt(k) - eta * cos_i) * n


@wp.func
def through_surface(p: wp.vec2, d: wp.vec2, z_v: float, c: float, eta: float):
    t = hit_sphere(p, d, z_v, c)
    ph = p + t * d
    return ph, refract(d, surface_normal(ph, z_v, c), eta)
