"""Small geometry helpers shared by the particle scripts."""

import warp as wp


@wp.func
def pair_distance(a: wp.vec3, b: wp.vec3):
    d = a - b
    return wp.sqrt(wp.dot(d, d))  # expect: TW403


@wp.func
def pair_weight(i: int, j: int):
    return wp.where(i == j, 0.0, 1.0)
