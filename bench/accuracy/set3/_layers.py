"""Minimal dense-layer helpers on top of Warp kernels."""
import numpy as np
import warp as wp


@wp.kernel
def dense_kernel(
    x: wp.array2d(dtype=float),
    W: wp.array2d(dtype=float),
    b: wp.array(dtype=float),
    y: wp.array2d(dtype=float),
):
    n, j = wp.tid()
    acc = b[j]
    for k in range(W.shape[1]):
        acc += W[j, k] * x[n, k]
    y[n, j] = acc


@wp.kernel
def softsign_kernel(x: wp.array2d(dtype=float), y: wp.array2d(dtype=float)):
    n, j = wp.tid()
    v = x[n, j]
    y[n, j] = v / (1.0 + wp.abs(v))


class Dense:
    def __init__(self, n_in, n_out, rng):
        self.W = wp.array((rng.normal(0.0, 1.0, (n_out, n_in)) / np.sqrt(n_in)).astype(np.float32), dtype=float, requires_grad=True)
        self.b = wp.zeros(n_out, dtype=float, requires_grad=True)

    def __call__(self, x):
        y = wp.zeros((x.shape[0], self.W.shape[0]), dtype=float, requires_grad=True)
        wp.launch(dense_kernel, dim=y.shape, inputs=[x, self.W, self.b], outputs=[y])
        return y

    def params(self):
        return [self.W, self.b]


def softsign(x):
    y = wp.empty(x.shape, dtype=float)  # expect: requires_grad
    wp.launch(softsign_kernel, dim=x.shape, inputs=[x], outputs=[y])
    return y
