"""Polynomial helpers with a compile-time degree (Horner's rule, unrolled by Warp)."""

import warp as wp


@wp.func
def horner_cubic(c: wp.array(dtype=float), x: float):
    acc = float(0.0)
    for k in range(4):  # a literal bound: Warp unrolls the loop and the adjoint replays each step
        acc = acc * x + c[k]
    return acc
