"""Shading helpers for the point-light estimation demo: a guarded normalize with
a hand-written adjoint, and Blinn-Phong."""
import warp as wp

EPS = 1.0e-8


@wp.func
def safe_normalize(v: wp.vec3):
    return v / wp.sqrt(wp.dot(v, v) + EPS)


@wp.func_grad(safe_normalize)
def adj_safe_normalize(v: wp.vec3, adj_ret: wp.vec3):
    inv = 1.0 / wp.sqrt(wp.dot(v, v) + EPS)
    u = v * inv
    wp.adjoint[v] = (adj_ret - u * wp.dot(u, adj_ret)) * inv  # expect: custom_adjoint


@wp.func
def blinn_phong(n: wp.vec3, l: wp.vec3, view: wp.vec3, kd: float, ks: float, shininess: float):
    h = safe_normalize(l + view)
    return kd * wp.max(wp.dot(n, l), 0.0) + ks * wp.pow(wp.max(wp.dot(n, h), 1.0e-4), shininess)
