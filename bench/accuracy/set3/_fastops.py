"""Hot-loop grid kernels; compiled lean because they run every frame."""
import warp as wp

wp.set_module_options({"enable_backward": False})  # expect: adjoint_disabled


@wp.kernel
def diffuse(u: wp.array2d(dtype=float), alpha: float, out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    nx = u.shape[0]
    ny = u.shape[1]
    c = u[i, j]
    n = u[wp.max(i - 1, 0), j] + u[wp.min(i + 1, nx - 1), j] + u[i, wp.max(j - 1, 0)] + u[i, wp.min(j + 1, ny - 1)]
    out[i, j] = c + alpha * (n - 4.0 * c)
