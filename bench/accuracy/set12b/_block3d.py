"""Explicit heat conduction in a 3-D solid block with volumetric sources."""
import numpy as np
import warp as wp

wp.set_module_options({"enable_backward": False})  # expect: adjoint_disabled

N = 8
ALPHA = 0.12


@wp.kernel
def heat3d_step(T: wp.array3d(dtype=float), src: wp.array3d(dtype=float), power: wp.array(dtype=float),
                T_out: wp.array3d(dtype=float)):
    i, j, k = wp.tid()
    c = T[i, j, k]
    lap = float(0.0)
    if i > 0:
        lap += T[i - 1, j, k] - c
    if i < N - 1:
        lap += T[i + 1, j, k] - c
    if j > 0:
        lap += T[i, j - 1, k] - c
    if j < N - 1:
        lap += T[i, j + 1, k] - c
    if k > 0:
        lap += T[i, j, k - 1] - c
    if k < N - 1:
        lap += T[i, j, k + 1] - c
    # conductivity rises with temperature; the surface k = N - 1 radiates
    kappa = ALPHA * (1.0 + 0.5 * c)
    loss_rad = wp.where(k == N - 1, 0.02 * c * c * c * c, 0.0)
    T_out[i, j, k] = c + kappa * lap + 0.3 * power[0] * src[i, j, k] - loss_rad


def source_mask():
    m = np.zeros((N, N, N), dtype=np.float32)
    m[2:4, 3:5, 1:3] = 1.0
    return m
