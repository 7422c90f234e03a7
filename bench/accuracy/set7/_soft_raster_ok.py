"""Soft rasterisation helpers: a smooth coverage function with a hand-written adjoint."""
import warp as wp


@wp.func
def coverage(sd: float, sharp: float):
    # logistic coverage of a pixel at signed distance sd from the edge
    return 1.0 / (1.0 + wp.exp(sharp * sd))


@wp.func_grad(coverage)
def adj_coverage(sd: float, sharp: float, adj_ret: float):
    c = 1.0 / (1.0 + wp.exp(sharp * sd))
    dc = -sharp * c * (1.0 - c)
    wp.adjoint[sd] += dc * adj_ret
    wp.adjoint[sharp] += -sd * c * (1.0 - c) * adj_ret


@wp.func
def disk_coverage(p: wp.vec2, center: wp.vec2, radius: float, sharp: float):
    return coverage(wp.length(p - center) - radius, sharp)
