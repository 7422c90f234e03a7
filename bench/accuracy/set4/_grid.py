import numpy as np
import warp as wp


def make_field(nx, ny, value=0.0):
    return wp.array(np.full((nx, ny), value, dtype=np.float32), dtype=wp.float32)  # expect: requires_grad


def make_param(values):
    return wp.array(np.asarray(values, dtype=np.float32), dtype=wp.float32, requires_grad=True)


def scalar():
    return wp.zeros(1, dtype=wp.float32, requires_grad=True)
