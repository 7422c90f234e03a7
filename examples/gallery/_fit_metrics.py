"""Host-side scores of a fit, shared by the exposure-fitting programs."""

import numpy as np


def score(per_pixel):
    """The number the line search compares: the mean per-pixel error."""
    return float(np.mean(per_pixel.numpy()))


def total(per_pixel):
    """The number the line search compares: the summed per-pixel error."""
    return float(per_pixel.numpy().sum())
