"""Charbonnier penalty with a custom adjoint that is finite at r = 0."""
import warp as wp


@wp.func
def charbonnier(r: float, eps: float):
    return wp.sqrt(r * r + eps * eps) - eps


@wp.func_grad(charbonnier)
def adj_charbonnier(r: float, eps: float, adj_ret: float):
    wp.adjoint[r] += adj_ret * r / wp.sqrt(r * r + eps * eps)
