"""Radiometric calibration of a camera: recover exposure and the radial
vignetting polynomial from a flat-field photo, minimising the mean squared
per-pixel error."""
from typing import Any

import numpy as np
import warp as wp

RES = 16


@wp.kernel
def shade(radiance: wp.array(dtype=float), params: wp.array(dtype=float), img: wp.array(dtype=float)):
    k = wp.tid()
    i = k // RES
    j = k - i * RES
    x = (float(j) + 0.5) / float(RES) - 0.5
    y = (float(i) + 0.5) / float(RES) - 0.5
    r2 = 2.0 * (x * x + y * y)
    v = 1.0 + params[1] * r2 + params[2] * r2 * r2
    lin = params[0] * radiance[k] * v
    img[k] = lin / (1.0 + lin)


@wp.kernel
def squared_error(a: wp.array(dtype=Any), b: wp.array(dtype=Any), out: wp.array(dtype=Any)):
    k = wp.tid()
    d = a[k] - b[k]
    out[k] = d * d


def shade_np(radiance, p):
    yy, xx = (np.mgrid[0:RES, 0:RES] + 0.5) / RES - 0.5
    r2 = (2.0 * (xx * xx + yy * yy)).ravel()
    lin = p[0] * radiance * (1 + p[1] * r2 + p[2] * r2 * r2)
    return (lin / (1 + lin)).astype(np.float32)


RADIANCE = np.random.default_rng(2).uniform(0.5, 1.5, RES * RES).astype(np.float32)
OBSERVED = shade_np(RADIANCE, [1.4, -0.35, 0.05])
PARAMS0 = [1.0, 0.0, 0.0]


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    radiance = wp.array(RADIANCE, dtype=float)
    observed = wp.array(OBSERVED, dtype=float)
    img = wp.zeros(RES * RES, dtype=float, requires_grad=True)
    err = wp.zeros(RES * RES, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(shade, dim=RES * RES, inputs=[radiance, params], outputs=[img])
        wp.launch(squared_error, dim=RES * RES, inputs=[img, observed], outputs=[err])
    loss = float(err.numpy().mean())
    tape.backward(grads={err: wp.ones_like(err)})  # expect: seeding
    return loss, params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(50):
        l, g = evaluate(p)
        p -= 0.02 * g
    print(f"mse {l:.3e} exposure {p[0]:.3f} vignetting k1 {p[1]:.3f} k2 {p[2]:.3f}")
