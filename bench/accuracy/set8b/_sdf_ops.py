"""SDF combinators with hand-written, numerically stable adjoints."""

import warp as wp


@wp.func
def sphere(p: wp.vec3, c: wp.vec3, r: float):
    return wp.length(p - c) - r


@wp.func
def smooth_union(a: float, b: float, k: float):
    m = wp.min(a, b)
    return m - k * wp.log(wp.exp((m - a) / k) + wp.exp((m - b) / k))


@wp.func_grad(smooth_union)
def adj_smooth_union(a: float, b: float, k: float, adj_ret: float):
    m = wp.min(a, b)
    ea = wp.exp((m - a) / k)
    eb = wp.exp((m - b) / k)
    wa = ea / (ea + eb)
    wp.adjoint[a] += adj_ret * wa
    wp.adjoint[b] += adj_ret * wa  # expect: custom_adjoint
