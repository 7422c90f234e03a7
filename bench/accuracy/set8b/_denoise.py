"""Energies for variational image denoising (data fidelity + smoothed total variation)."""

import warp as wp

TV_EPS = 0.01


@wp.kernel
def fidelity(u: wp.array2d(dtype=float), f: wp.array2d(dtype=float), inv_n: float, e: wp.array(dtype=float)):
    i, j = wp.tid()
    r = u[i, j] - f[i, j]
    wp.atomic_add(e, 0, 0.5 * r * r * inv_n)


@wp.kernel
def smoothed_tv(u: wp.array2d(dtype=float), inv_n: float, e: wp.array(dtype=float)):
    i, j = wp.tid()
    h = u.shape[0]
    w = u.shape[1]
    dx = u[i, wp.min(j + 1, w - 1)] - u[i, j]
    dy = u[wp.min(i + 1, h - 1), j] - u[i, j]
    wp.atomic_add(e, 0, wp.sqrt(dx * dx + dy * dy + TV_EPS * TV_EPS) * inv_n)


def noisy_image(n=6, seed=3):
    import numpy as np

    rng = np.random.default_rng(seed)
    clean = np.zeros((n, n), dtype=np.float32)
    clean[:, n // 2:] = 1.0
    return (clean + 0.15 * rng.normal(size=(n, n))).astype(np.float32)
