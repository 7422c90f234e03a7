"""Image filters for the coarse-to-fine alignment demo."""
import warp as wp

wp.set_module_options({"enable_backward": False})  # expect: adjoint_disabled

TAPS = 5
WEIGHTS = wp.constant(wp.types.vector(length=5, dtype=float)(0.0625, 0.25, 0.375, 0.25, 0.0625))


@wp.kernel
def blur_rows(src: wp.array2d(dtype=float), dst: wp.array2d(dtype=float)):
    i, j = wp.tid()
    w = src.shape[1]
    acc = float(0.0)
    for k in range(TAPS):
        jj = wp.clamp(j + k - 2, 0, w - 1)
        acc += WEIGHTS[k] * src[i, jj]
    dst[i, j] = acc


@wp.kernel
def blur_cols(src: wp.array2d(dtype=float), dst: wp.array2d(dtype=float)):
    i, j = wp.tid()
    h = src.shape[0]
    acc = float(0.0)
    for k in range(TAPS):
        ii = wp.clamp(i + k - 2, 0, h - 1)
        acc += WEIGHTS[k] * src[ii, j]
    dst[i, j] = acc


def gaussian_blur(src, tmp, dst):
    wp.launch(blur_rows, dim=src.shape, inputs=[src], outputs=[tmp])
    wp.launch(blur_cols, dim=src.shape, inputs=[tmp], outputs=[dst])
