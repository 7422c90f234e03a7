"""Radial-basis-function regression model (fixed centres, learned amplitudes)."""

import numpy as np
import warp as wp

N_CENTERS = 8
SIGMA = 0.35


@wp.kernel
def rbf_predict(x: wp.array(dtype=float), centers: wp.array(dtype=float), amp: wp.array(dtype=float),
                pred: wp.array(dtype=float)):
    n = wp.tid()
    s = float(0.0)
    for k in range(N_CENTERS):
        d = (x[n] - centers[k]) / SIGMA
        s += amp[k] * wp.exp(-d * d)
    pred[n] = s


@wp.kernel
def sq_residual(pred: wp.array(dtype=float), y: wp.array(dtype=float), scale: float, loss: wp.array(dtype=float)):
    n = wp.tid()
    r = pred[n] - y[n]
    wp.atomic_add(loss, 0, scale * r * r)


@wp.kernel
def ridge(amp: wp.array(dtype=float), lam: float, loss: wp.array(dtype=float)):
    k = wp.tid()
    wp.atomic_add(loss, 0, lam * amp[k] * amp[k])


@wp.kernel
def heavy_ball(p: wp.array(dtype=float), g: wp.array(dtype=float), vel: wp.array(dtype=float), lr: float,
               beta: float):
    i = wp.tid()
    v = beta * vel[i] + g[i]
    vel[i] = v
    p[i] = p[i] - lr * v


def dataset(n=24, seed=0):
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(-1.0, 1.0, n)).astype(np.float32)
    y = (np.tanh(3.0 * x) + 0.3 * np.cos(5.0 * x) + 0.02 * rng.normal(size=n)).astype(np.float32)
    return x, y


def centers():
    return np.linspace(-1.0, 1.0, N_CENTERS).astype(np.float32)
