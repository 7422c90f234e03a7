import numpy as np
import warp as wp

IN_DIM = 3
HIDDEN = 5


@wp.kernel
def encode(w: wp.array2d(dtype=wp.float32), x: wp.array2d(dtype=wp.float32), h: wp.array2d(dtype=wp.float32)):
    b, j = wp.tid()
    s = float(0.0)
    for k in range(IN_DIM):
        s += w[j, k] * x[b, k]
    h[b, j] = wp.tanh(s)


@wp.kernel
def decode(h: wp.array2d(dtype=wp.float32), v: wp.array(dtype=wp.float32), y: wp.array2d(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    b = wp.tid()
    s = float(0.0)
    for j in range(HIDDEN):
        s += v[j] * h[b, j] * h[b, j]
    r = s - y[b, 0]
    wp.atomic_add(loss, 0, r * r)


def init_weights(hidden, inputs, seed=0):
    rng = np.random.default_rng(seed)
    return (0.5 * rng.standard_normal((hidden, inputs))).astype(np.float32)
