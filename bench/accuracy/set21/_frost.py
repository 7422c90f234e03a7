"""Soil-column heat conduction with a smoothed freezing curve (apparent heat capacity)."""
import warp as wp

N_LAYER = 16


@wp.func
def apparent_capacity(t: float, latent: float):
    # latent heat released over a narrow band around 0 C
    return 1.0 + latent * wp.exp(-t * t / 0.5)


@wp.kernel
def conduct(p: wp.array(dtype=float), t_old: wp.array(dtype=float), t_surf: float, t_new: wp.array(dtype=float)):
    i = wp.tid()
    k = p[0] * 0.2
    up = t_surf
    if i > 0:
        up = t_old[i - 1]
    down = t_old[i]
    if i < N_LAYER - 1:
        down = t_old[i + 1]
    lap = up - 2.0 * t_old[i] + down
    t_new[i] = t_old[i] + k * lap / apparent_capacity(t_old[i], p[1] * 4.0)
