"""Brush tyre model with a hand-written adjoint (adhesion / full sliding)."""
import warp as wp


@wp.func
def brush_force(slip: float, stiff: float, mu: float):
    s_crit = 3.0 * mu / stiff
    if slip < s_crit:
        x = stiff * slip
        return x - x * x / (3.0 * mu) + x * x * x / (27.0 * mu * mu)
    else:
        return mu


@wp.func_grad(brush_force)
def adj_brush_force(slip: float, stiff: float, mu: float, adj_ret: float):
    s_crit = 3.0 * mu / stiff
    if slip < s_crit:
        x = stiff * slip
        dfdx = 1.0 - 2.0 * x / (3.0 * mu) + x * x / (9.0 * mu * mu)
        wp.adjoint[slip] += adj_ret * dfdx * stiff
        wp.adjoint[stiff] += adj_ret * dfdx * slip
        wp.adjoint[mu] += adj_ret * (x * x / (3.0 * mu * mu) - 2.0 * x * x * x / (27.0 * mu * mu * mu))
    else:
        wp.adjoint[mu] += adj_ret * slip  # expect: custom_adjoint
