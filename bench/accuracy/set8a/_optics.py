"""Beam attenuation through a stack of absorbing layers (Beer-Lambert per layer)."""
import warp as wp


@wp.func
def stack_transmittance(mu: wp.array(dtype=wp.float64), dz: wp.array(dtype=wp.float64), n_layers: int,
                        cos_theta: wp.float64) -> wp.float64:
    t = wp.float64(1.0)
    for k in range(n_layers):
        t = t * wp.exp(-mu[k] * dz[k] / cos_theta)  # expect: dynamic_loop
    return t


@wp.kernel
def transmitted_flux(mu: wp.array(dtype=wp.float64), dz: wp.array(dtype=wp.float64), n_layers: int,
                     cos_theta: wp.array(dtype=wp.float64), flux_in: wp.float64,
                     flux: wp.array(dtype=wp.float64)):
    r = wp.tid()
    flux[r] = flux_in * cos_theta[r] * stack_transmittance(mu, dz, n_layers, cos_theta[r])
