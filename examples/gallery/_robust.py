"""Robust penalty functions with hand-written adjoints."""

import warp as wp


@wp.func
def pseudo_huber(r: float, delta: float):
    s = r / delta
    return delta * delta * (wp.sqrt(1.0 + s * s) - 1.0)


@wp.func_grad(pseudo_huber)
def adj_pseudo_huber(r: float, delta: float, adj_ret: float):
    s = r / delta
    root = wp.sqrt(1.0 + s * s)
    wp.adjoint[r] += adj_ret * r / root
    wp.adjoint[delta] += adj_ret * (2.0 * delta * (root - 1.0) - r * s / root)
