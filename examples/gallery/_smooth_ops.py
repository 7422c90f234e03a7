"""Smooth, differentiable stand-ins for hard operations, with hand-written adjoints."""

import warp as wp


@wp.func
def soft_abs(x: float, width: float):
    return wp.sqrt(x * x + width * width) - width


@wp.func_grad(soft_abs)
def adj_soft_abs(x: float, width: float, adj_ret: float):
    wp.adjoint[x] += x / wp.sqrt(x * x + width * width)  # expect[total_variation_denoise]: TW404


@wp.func
def soft_abs_scaled(x: float, width: float):
    return wp.sqrt(x * x + width * width) - width


@wp.func_grad(soft_abs_scaled)
def adj_soft_abs_scaled(x: float, width: float, adj_ret: float):
    wp.adjoint[x] += adj_ret * x / wp.sqrt(x * x + width * width)
