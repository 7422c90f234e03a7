"""Smooth pair potentials: a distance two calls below the kernel (its sqrt is singular at zero distance), and
the same potential on the guarded wp.length."""
import warp as wp


@wp.func
def distance(a: wp.vec3, b: wp.vec3):
    d = a - b
    return wp.sqrt(wp.dot(d, d))  # expect[nan_pair_energy_nested]: TW403


@wp.func
def soft_repulsion(a: wp.vec3, b: wp.vec3, scale: float):
    r = distance(a, b)
    return wp.exp(-r / scale)


@wp.func
def soft_repulsion_guarded(a: wp.vec3, b: wp.vec3, scale: float):
    r = wp.length(a - b)  # wp.length is guarded at zero: a zero gradient there, not NaN
    return wp.exp(-r / scale)
