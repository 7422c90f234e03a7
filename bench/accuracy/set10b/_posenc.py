"""Frequency (positional) encoding for 2-D coordinates, as used by the frozen
field in b27.  Encoding layout per frequency f: sin(2^f x), cos(2^f x),
sin(2^f y), cos(2^f y)."""
import warp as wp

N_FREQ = 3
ENC_DIM = 4 * N_FREQ


@wp.kernel(enable_backward=False)  # expect: adjoint_disabled
def positional_encoding(x: wp.array(dtype=wp.vec2), enc: wp.array2d(dtype=float)):
    i = wp.tid()
    p = x[i]
    scale = float(1.0)
    for f in range(N_FREQ):
        enc[i, 4 * f + 0] = wp.sin(scale * p[0])
        enc[i, 4 * f + 1] = wp.cos(scale * p[0])
        enc[i, 4 * f + 2] = wp.sin(scale * p[1])
        enc[i, 4 * f + 3] = wp.cos(scale * p[1])
        scale = scale * 2.0
