"""Norton power-law creep with hand-written adjoints: wp.pow's own adjoint needs log(stress), which is
NaN at zero stress, so the derivatives are written out with their zero-stress limits."""

import warp as wp


@wp.func
def norton(stress: float, n: float):
    return wp.pow(stress, n)


@wp.func_grad(norton)
def adj_norton(stress: float, n: float, adj_ret: float):
    if stress > 0.0:
        wp.adjoint[stress] += adj_ret * n * wp.pow(stress, n)  # expect[creep_norton_adjoint]: TW404 (n * stress^(n - 1))
        wp.adjoint[n] += adj_ret * wp.pow(stress, n) * wp.log(stress)


@wp.func
def norton_ok(stress: float, n: float):
    return wp.pow(stress, n)


@wp.func_grad(norton_ok)
def adj_norton_ok(stress: float, n: float, adj_ret: float):
    if stress > 0.0:
        wp.adjoint[stress] += adj_ret * n * wp.pow(stress, n - 1.0)
        wp.adjoint[n] += adj_ret * wp.pow(stress, n) * wp.log(stress)
