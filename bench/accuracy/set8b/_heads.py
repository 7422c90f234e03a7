"""Per-feature post-processing kernels for the gated regression network."""

import warp as wp


@wp.kernel
def apply_feature_gain(h: wp.array2d(dtype=float), gain: wp.array(dtype=float)):
    n, j = wp.tid()
    h[n, j] *= gain[j]  # expect: inplace_op


@wp.kernel
def readout(h: wp.array2d(dtype=float), w: wp.array(dtype=float), b: wp.array(dtype=float),
            y: wp.array(dtype=float)):
    n = wp.tid()
    s = b[0]
    for j in range(6):
        s += w[j] * h[n, j]
    y[n] = s


@wp.kernel
def mse1d(y: wp.array(dtype=float), t: wp.array(dtype=float), inv_n: float, loss: wp.array(dtype=float)):
    n = wp.tid()
    r = y[n] - t[n]
    wp.atomic_add(loss, 0, r * r * inv_n)
