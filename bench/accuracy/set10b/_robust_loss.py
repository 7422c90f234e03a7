"""Robust penalties with closed-form adjoints (used by the curve fitter b25)."""
import warp as wp


@wp.func
def pseudo_huber(r: float, delta: float):
    u = r / delta
    return delta * delta * (wp.sqrt(1.0 + u * u) - 1.0)


@wp.func_grad(pseudo_huber)
def adj_pseudo_huber(r: float, delta: float, adj_ret: float):
    # d/dr delta^2 (sqrt(1 + (r/delta)^2) - 1) = r / sqrt(1 + (r/delta)^2)
    u = r / delta
    wp.adjoint[r] = adj_ret * r / wp.sqrt(1.0 + u * u)  # expect: custom_adjoint
