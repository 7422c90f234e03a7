"""Image kernels shared by the filter-learning scripts."""

import warp as wp

TAPS = 3  # 3x3 filter


@wp.kernel
def scatter_blur(src: wp.array2d(dtype=float), weights: wp.array(dtype=float), dst: wp.array2d(dtype=float)):
    """Splat every source pixel into its 3x3 neighbourhood (clamped at the border)."""
    i, j = wp.tid()
    h = src.shape[0]
    w = src.shape[1]
    v = src[i, j]
    for a in range(TAPS):
        for b in range(TAPS):
            ii = wp.clamp(i + a - 1, 0, h - 1)
            jj = wp.clamp(j + b - 1, 0, w - 1)
            wp.atomic_add(dst, ii, jj, weights[a * TAPS + b] * v)


@wp.kernel
def tone_curve(src: wp.array2d(dtype=float), gain: wp.array(dtype=float), dst: wp.array2d(dtype=float)):
    i, j = wp.tid()
    dst[i, j] = wp.tanh(gain[0] * src[i, j])


@wp.kernel
def image_mse(img: wp.array2d(dtype=float), target: wp.array2d(dtype=float), inv_count: float,
              loss: wp.array(dtype=float)):
    i, j = wp.tid()
    r = img[i, j] - target[i, j]
    wp.atomic_add(loss, 0, r * r * inv_count)


def test_pattern(h, w, phase=0.0):
    import numpy as np

    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    return (0.5 + 0.5 * np.sin(0.7 * x + phase) * np.cos(0.5 * y)).astype(np.float32)
