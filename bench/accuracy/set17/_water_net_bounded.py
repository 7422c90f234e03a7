"""Chlorine transport along the supply path of each customer node of a
distribution network (bulk second-order and wall first-order decay)."""
import warp as wp

MAX_SEG = wp.constant(8)


@wp.func
def residual_chlorine(c0: float, kb: float, kw: float, n: int, node: int,
                      seg_time: wp.array2d(dtype=float), seg_radius: wp.array2d(dtype=float)):
    c = c0
    for k in range(MAX_SEG):
        if k < n:
            t = seg_time[node, k]
            c = c / (1.0 + kb * c * t)
            c = c * wp.exp(-kw / seg_radius[node, k] * t)
    return c
