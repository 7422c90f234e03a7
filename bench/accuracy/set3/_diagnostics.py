"""Forward-only helpers: preprocessing of measured data and monitoring."""
import warp as wp

wp.set_module_options({"enable_backward": False})


@wp.kernel
def normalize_peak(field: wp.array2d(dtype=float), peak: float, out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    out[i, j] = field[i, j] / peak


@wp.kernel
def total_heat(u: wp.array2d(dtype=float), total: wp.array(dtype=float)):
    i, j = wp.tid()
    wp.atomic_add(total, 0, u[i, j])
