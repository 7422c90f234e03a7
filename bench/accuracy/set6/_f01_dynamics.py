"""Helper module: particle dynamics kernels (constant damping factor)."""
import warp as wp


@wp.kernel
def accelerate(v: wp.array(dtype=wp.vec2), f: wp.array(dtype=wp.vec2), dt: float, v_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    v_out[i] = v[i] + dt * f[i]


@wp.kernel
def apply_drag(v: wp.array(dtype=wp.vec2), drag: float):
    i = wp.tid()
    v[i] *= drag


@wp.kernel
def drift(x: wp.array(dtype=wp.vec2), v: wp.array(dtype=wp.vec2), dt: float, x_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    x_out[i] = x[i] + dt * v[i]
