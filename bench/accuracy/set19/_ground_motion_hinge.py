"""Trilinear-style geometric spreading for a regional ground-motion model.

Spreading is 1/R^b1 out to the hinge distance R_HINGE (direct waves) and
1/R^b2 beyond it (Lg / surface waves), continuous at the hinge. The adjoint is
written by hand (the forward is evaluated millions of times in hazard runs).
"""
import warp as wp

R_HINGE = wp.constant(70.0)


@wp.func
def spreading(r: float, b1: float, b2: float):
    if r < R_HINGE:
        return -b1 * wp.log(r)
    return -b1 * wp.log(R_HINGE) - b2 * wp.log(r / R_HINGE)


@wp.func_grad(spreading)
def adj_spreading(r: float, b1: float, b2: float, adj_ret: float):
    if r < R_HINGE:
        wp.adjoint[r] += -adj_ret * b1 / r
        wp.adjoint[b1] += -adj_ret * wp.log(r)
    else:
        wp.adjoint[r] += -adj_ret * b2 / r
        wp.adjoint[b1] += -adj_ret * wp.log(R_HINGE)
        wp.adjoint[b2] += -adj_ret * wp.log(r / R_HINGE)
