"""Scalar objectives computed on the host from per-pixel losses."""
import numpy as np


def objective(per_pixel):
    """The objective the line search minimises: mean per-pixel loss."""
    return float(np.mean(per_pixel.numpy()))
