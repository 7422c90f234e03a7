"""Butler-Volmer electrode kinetics for the half-cell fits."""
import warp as wp

F_RT = 38.92  # F / (R T) at 298 K, 1/V
ETA_LIN = 0.01  # below this overpotential the linearised law is used


@wp.func
def bv_current(eta: float, i0: float, alpha: float) -> float:
    if wp.abs(eta) < ETA_LIN:
        return i0 * F_RT * eta
    else:
        return i0 * (wp.exp(alpha * F_RT * eta) - wp.exp(-(1.0 - alpha) * F_RT * eta))


@wp.func_grad(bv_current)
def adj_bv_current(eta: float, i0: float, alpha: float, adj_ret: float):
    if wp.abs(eta) < ETA_LIN:
        wp.adjoint[i0] += adj_ret * F_RT * eta
        wp.adjoint[eta] += adj_ret * i0 * F_RT
    else:
        anodic = wp.exp(alpha * F_RT * eta)
        cathodic = wp.exp((alpha - 1.0) * F_RT * eta)
        # both exponents grow with alpha at the same rate F eta / (R T)
        d_alpha = F_RT * eta * (anodic - cathodic)
        wp.adjoint[i0] += adj_ret * (anodic - cathodic)
        wp.adjoint[alpha] += adj_ret * i0 * d_alpha
        wp.adjoint[eta] += adj_ret * i0 * F_RT * (alpha * anodic + (1.0 - alpha) * cathodic)
