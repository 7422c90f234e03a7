"""Geometry helpers for a hinge-based cloth bending model."""
import warp as wp


@wp.func
def tri_normal(a: wp.vec3, b: wp.vec3, c: wp.vec3):
    return wp.normalize(wp.cross(b - a, c - a))


@wp.func
def hinge_angle(x0: wp.vec3, x1: wp.vec3, x2: wp.vec3, x3: wp.vec3):
    # edge (x0, x1) shared by triangles (x0, x1, x2) and (x1, x0, x3)
    n1 = tri_normal(x0, x1, x2)
    n2 = tri_normal(x1, x0, x3)
    s = wp.cross(n1, n2)
    sin_theta = wp.length(s)
    return wp.atan2(sin_theta, wp.dot(n1, n2))
