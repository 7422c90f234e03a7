"""Small dense-layer building blocks written as Warp kernels.

Weights are stored flat (row-major, ``W[j * n_in + k]``) so that the
optimisers in ``warp.optim`` can update them directly.
"""

import warp as wp


@wp.func
def act_tanh(z: float):
    return wp.tanh(z)


@wp.func
def act_linear(z: float):
    return z


@wp.func
def act_softplus(z: float):
    # log(1 + e^z) written in the overflow-safe form
    return wp.max(z, 0.0) + wp.log(1.0 + wp.exp(-wp.abs(z)))


def make_dense(n_in: int, act):
    """Build a dense-layer kernel with a fixed fan-in (the loop is unrolled)."""

    @wp.kernel(module="unique")
    def dense(
        x: wp.array2d(dtype=float),
        W: wp.array(dtype=float),
        b: wp.array(dtype=float),
        y: wp.array2d(dtype=float),
    ):
        n, j = wp.tid()
        z = b[j]
        for k in range(n_in):
            z += W[j * n_in + k] * x[n, k]
        y[n, j] = act(z)

    return dense


@wp.kernel
def mse_loss(pred: wp.array2d(dtype=float), target: wp.array2d(dtype=float), inv_count: float,
             loss: wp.array(dtype=float)):
    n, j = wp.tid()
    r = pred[n, j] - target[n, j]
    wp.atomic_add(loss, 0, r * r * inv_count)


@wp.kernel
def l2_penalty(w: wp.array(dtype=float), weight: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, weight * w[i] * w[i])


def glorot(rng, n_out, n_in):
    import numpy as np

    s = (6.0 / (n_in + n_out)) ** 0.5
    return rng.uniform(-s, s, size=n_out * n_in).astype(np.float32)
