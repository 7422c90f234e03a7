"""Nadaraya-Watson kernel-regression field used by b22."""
import warp as wp

NUM_CENTERS = 10


@wp.func
def nw_eval(x: wp.vec2, centers: wp.array(dtype=wp.vec2), values: wp.array(dtype=float), inv_h2: float, n_centers: int):
    num = float(0.0)
    den = float(1.0e-6)
    for k in range(n_centers):  # expect: dynamic_loop
        d = x - centers[k]
        w = wp.exp(-wp.dot(d, d) * inv_h2)
        num += w * values[k]
        den += w
    return num / den


@wp.kernel
def field_misfit(xs: wp.array(dtype=wp.vec2), ys: wp.array(dtype=float), centers: wp.array(dtype=wp.vec2),
                 values: wp.array(dtype=float), log_h: wp.array(dtype=float), n_centers: int, loss: wp.array(dtype=float)):
    i = wp.tid()
    inv_h2 = wp.exp(-2.0 * log_h[0])
    r = nw_eval(xs[i], centers, values, inv_h2, n_centers) - ys[i]
    wp.atomic_add(loss, 0, r * r / float(xs.shape[0]))
