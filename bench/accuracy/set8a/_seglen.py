"""Segment length with a hand-written derivative, used on single-use temporaries."""
import warp as wp


@wp.func
def safe_length(d: wp.vec3d) -> wp.float64:
    return wp.sqrt(wp.dot(d, d) + wp.float64(1.0e-12))


@wp.func_grad(safe_length)
def adj_safe_length(d: wp.vec3d, adj_ret: wp.float64):
    l = wp.sqrt(wp.dot(d, d) + wp.float64(1.0e-12))
    wp.adjoint[d] = adj_ret / l * d


@wp.kernel
def cable_forces(x: wp.array(dtype=wp.vec3d), params: wp.array(dtype=wp.float64), rest: wp.float64,
                 f: wp.array(dtype=wp.vec3d)):
    s = wp.tid()
    l = safe_length(x[s + 1] - x[s])
    fs = wp.exp(params[0]) * (l - rest) / l * (x[s + 1] - x[s])
    wp.atomic_add(f, s, fs)
    wp.atomic_sub(f, s + 1, fs)
