"""Forward-only display utilities: 8-bit quantisation and a luminance histogram for previews."""

import warp as wp

wp.set_module_options({"enable_backward": False})

BINS = 16


@wp.kernel
def quantize(ldr: wp.array2d(dtype=wp.vec3), rgb8: wp.array3d(dtype=wp.uint8)):
    i, j = wp.tid()
    c = ldr[i, j]
    for k in range(3):
        rgb8[i, j, k] = wp.uint8(wp.clamp(c[k] * 255.0 + 0.5, 0.0, 255.0))


@wp.kernel
def luminance_histogram(ldr: wp.array2d(dtype=wp.vec3), hist: wp.array(dtype=int)):
    i, j = wp.tid()
    c = ldr[i, j]
    y = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
    b = wp.clamp(int(y * float(BINS)), 0, BINS - 1)
    wp.atomic_add(hist, b, 1)
