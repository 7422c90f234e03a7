"""Helper module: robust losses with hand-written adjoints."""
import warp as wp


@wp.func
def smooth_abs(r: float, eps: float):
    return wp.sqrt(r * r + eps * eps) - eps


@wp.func_grad(smooth_abs)
def adj_smooth_abs(r: float, eps: float, adj_ret: float):
    s = r * r + eps * eps
    wp.adjoint[r] += adj_ret * r / wp.sqrt(s)
