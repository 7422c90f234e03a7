"""Polynomial helpers shared by the root-finding programs (Horner's rule)."""

import warp as wp


@wp.func
def horner_any(c: wp.array(dtype=float), x: float):
    acc = float(0.0)
    for k in range(c.shape[0]):  # expect[polynomial_roots_helper]: TW303  expect[polynomial_roots_helper]: TW404
        acc = acc * x + c[k]
    return acc

