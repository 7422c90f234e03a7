"""A tiny emission-absorption volume: density grid from Gaussian blobs, orthographic rays along +z."""

import numpy as np
import warp as wp

G = 8
BLOB_CENTERS = wp.constant(wp.mat33(2.5, 3.0, 2.0, 5.0, 4.5, 4.0, 3.5, 5.5, 6.0))  # one blob centre per row
BLOB_RADIUS = 1.6


@wp.kernel
def blobs_to_grid(amplitude: wp.array(dtype=float), grid: wp.array3d(dtype=float)):
    i, j, k = wp.tid()
    p = wp.vec3(float(i) + 0.5, float(j) + 0.5, float(k) + 0.5)
    s = float(0.0)
    for b in range(3):
        d = p - BLOB_CENTERS[b]
        s += amplitude[b] * wp.exp(-wp.dot(d, d) / (2.0 * BLOB_RADIUS * BLOB_RADIUS))
    grid[i, j, k] = s


@wp.kernel
def image_loss(img: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = img[i, j] - target[i, j]
    wp.atomic_add(loss, 0, d * d)


def target_image():
    rng = np.random.default_rng(2)
    return (0.4 + 0.2 * rng.random((G, G))).astype(np.float32)
