"""Bedload transport kernels (Meyer-Peter & Mueller type) for the flume runs."""
import warp as wp

wp.set_module_options({"enable_backward": True, "fast_math": False})

RHO_S_REL = 1.65
G = 9.81


@wp.kernel
def bedload_rate(tau: wp.array(dtype=float), d50: wp.array(dtype=float), p: wp.array(dtype=float),
                 qs: wp.array(dtype=float)):
    i = wp.tid()
    theta = tau[i] / (1000.0 * RHO_S_REL * G * d50[i])
    excess = wp.max(theta - p[1], 1.0e-6)
    qs[i] = p[0] * wp.pow(excess, 1.5) * wp.sqrt(RHO_S_REL * G * d50[i] * d50[i] * d50[i]) * 1.0e4
