"""Smooth penalty contact against a sinusoidal terrain, with a numerically stable softplus."""
import warp as wp


@wp.func
def soft_penetration(phi: wp.float64, h: wp.float64) -> wp.float64:
    # smooth version of max(-phi, 0), stable for large |phi| / h
    z = -phi / h
    return h * (wp.max(z, wp.float64(0.0)) + wp.log(wp.float64(1.0) + wp.exp(-wp.abs(z))))


@wp.func_grad(soft_penetration)
def adj_soft_penetration(phi: wp.float64, h: wp.float64, adj_ret: wp.float64):
    wp.adjoint[phi] += -adj_ret / (wp.float64(1.0) + wp.exp(-phi / h))  # expect: custom_adjoint


@wp.func
def terrain_height(x: wp.float64, amp: wp.float64) -> wp.float64:
    return amp * wp.sin(wp.float64(3.0) * x)


@wp.func
def terrain_slope(x: wp.float64, amp: wp.float64) -> wp.float64:
    return wp.float64(3.0) * amp * wp.cos(wp.float64(3.0) * x)
