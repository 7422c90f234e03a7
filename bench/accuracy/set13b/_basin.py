"""Sediment-column utilities for basin compaction models (Athy porosity law)."""
import numpy as np
import warp as wp


@wp.func
def athy(phi0: float, lam_km: float, z: float):
    # porosity at burial depth z (m) for surface porosity phi0 and compaction length lam_km (km)
    return phi0 * wp.exp(-z / (1000.0 * lam_km))


@wp.func
def depth_to_top(thick: wp.array(dtype=float), i: int):
    # burial depth of the top of layer i: sum of the layers above it
    top = float(0.0)
    for k in range(i):
        top += thick[k]
    return top


@wp.kernel
def decompacted_thickness(solid: wp.array(dtype=float), z_solid: wp.array(dtype=float), prm: wp.array(dtype=float),
                          thick: wp.array(dtype=float)):
    i = wp.tid()
    thick[i] = solid[i] / (1.0 - athy(prm[0], prm[1], z_solid[i]))


@wp.kernel
def porosity_log_misfit(z_mid: wp.array(dtype=float), prm: wp.array(dtype=float), log_phi: wp.array(dtype=float),
                        loss: wp.array(dtype=float)):
    i = wp.tid()
    d = athy(prm[0], prm[1], z_mid[i]) - log_phi[i]
    wp.atomic_add(loss, 0, 100.0 * d * d)


SOLID_M = np.array([60, 80, 55, 90, 70, 65, 85, 75, 50, 95, 70, 60], dtype=np.float32)
Z_SOLID = (np.cumsum(SOLID_M) - 0.5 * SOLID_M).astype(np.float32)
