"""Numerically stable activations with hand-written adjoints."""
import warp as wp


@wp.func
def softplus(x: float):
    return wp.max(x, 0.0) + wp.log(1.0 + wp.exp(-wp.abs(x)))


@wp.func_grad(softplus)
def adj_softplus(x: float, adj_ret: float):
    # d/dx softplus(x) = sigmoid(x)
    wp.adjoint[x] += adj_ret / (1.0 + wp.exp(x))  # expect: custom_adjoint
