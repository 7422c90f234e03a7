"""Helper module: smooth pair potentials."""
import warp as wp


@wp.func
def distance(a: wp.vec3, b: wp.vec3):
    d = a - b
    return wp.sqrt(wp.dot(d, d))


@wp.func
def soft_repulsion(a: wp.vec3, b: wp.vec3, scale: float):
    r = distance(a, b)
    return wp.exp(-r / scale)
