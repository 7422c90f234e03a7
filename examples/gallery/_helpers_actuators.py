"""Actuator models with hand-written adjoints (@wp.func_grad)."""

import warp as wp


@wp.func
def smooth_saturate(u: float, limit: float):
    return limit * wp.tanh(u / limit)


@wp.func_grad(smooth_saturate)
def adj_smooth_saturate(u: float, limit: float, adj_ret: float):
    t = wp.tanh(u / limit)
    wp.adjoint[u] += adj_ret * (1.0 - t)  # expect: TW404 (should be 1 - t*t)


@wp.func
def soft_abs(u: float, eps: float):
    return wp.sqrt(u * u + eps)


@wp.func_grad(soft_abs)
def adj_soft_abs(u: float, eps: float, adj_ret: float):
    wp.adjoint[u] += adj_ret * u / wp.sqrt(u * u + eps)
