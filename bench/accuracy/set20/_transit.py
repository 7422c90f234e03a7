"""Transit depth of a small planet on a quadratically limb-darkened star,
with a hand-written adjoint (the two contact regimes are separate branches)."""
import warp as wp


@wp.func
def transit_depth(z: float, k: float, u: float):
    c = 1.0 - u / 3.0
    if z <= 1.0 - k:
        mu = wp.sqrt(1.0 - z * z)
        return k * k * (1.0 - u * (1.0 - mu)) / c
    elif z < 1.0 + k:
        return 0.5 * k * (1.0 + k - z) * (1.0 - u) / c
    return 0.0


@wp.func_grad(transit_depth)
def adj_transit_depth(z: float, k: float, u: float, adj_ret: float):
    c = 1.0 - u / 3.0
    if z <= 1.0 - k:
        mu = wp.sqrt(1.0 - z * z)
        limb = 1.0 - u * (1.0 - mu)
        wp.adjoint[k] += adj_ret * 2.0 * k * limb / c
        wp.adjoint[u] += adj_ret * k * k * (-(1.0 - mu) / c + limb / (3.0 * c * c))
    elif z < 1.0 + k:
        wp.adjoint[k] += adj_ret * 0.5 * (1.0 + k - z) * (1.0 - u) / c  # expect: custom_adjoint
        wp.adjoint[u] += adj_ret * 0.5 * k * (1.0 + k - z) * (-1.0 / c + (1.0 - u) / (3.0 * c * c))


@wp.kernel
def light_curve(z: wp.array(dtype=float), p: wp.array(dtype=float), dip_ppt: wp.array(dtype=float)):
    i = wp.tid()
    dip_ppt[i] = 1000.0 * transit_depth(z[i], p[0], p[1])
