"""Dense layers for small MLPs; one kernel per layer shape, built by a factory."""

import functools

import numpy as np
import warp as wp


@wp.func
def activate(x: float, kind: int):
    if kind == 1:
        return wp.tanh(x)
    if kind == 2:
        return x / (1.0 + wp.exp(-x))  # SiLU
    return x


@functools.lru_cache(maxsize=None)
def make_dense_kernel(n_in: int, kind: int):
    @wp.kernel
    def dense(x: wp.array2d(dtype=float), W: wp.array2d(dtype=float), b: wp.array(dtype=float), out: wp.array2d(dtype=float)):
        n, o = wp.tid()
        s = b[o]
        for k in range(n_in):
            s += W[o, k] * x[n, k]
        out[n, o] = activate(s, kind)

    return dense


class Dense:
    ACTIVATIONS = {"linear": 0, "tanh": 1, "silu": 2}

    def __init__(self, n_in, n_out, activation="linear", rng=None):
        rng = rng or np.random.default_rng(0)
        self.n_in, self.n_out = n_in, n_out
        self.W = wp.array((rng.normal(size=(n_out, n_in)) / np.sqrt(n_in)).astype(np.float32), requires_grad=True)
        self.b = wp.zeros(n_out, dtype=float, requires_grad=True)
        self.kernel = make_dense_kernel(n_in, self.ACTIVATIONS[activation])

    def __call__(self, x, out):
        wp.launch(self.kernel, dim=(x.shape[0], self.n_out), inputs=[x, self.W, self.b], outputs=[out])
        return out

    def parameters(self):
        return [self.W, self.b]
