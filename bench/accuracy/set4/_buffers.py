import numpy as np
import warp as wp


def alloc(shape, dtype=wp.float32):
    return wp.zeros(shape, dtype=dtype, requires_grad=True)


def param(values, dtype=wp.float32):
    return wp.array(np.asarray(values, dtype=np.float32), dtype=dtype, requires_grad=True)
