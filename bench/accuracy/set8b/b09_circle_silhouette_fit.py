"""Differentiable silhouette rendering: fit a soft-edged circle (cx, cy, r) to a target mask.

The per-pixel squared error image is kept so that the error map can be
inspected; the reported objective is the mean pixel error.
"""

import numpy as np
import warp as wp

wp.config.quiet = True

RES = 16
EDGE = 0.04  # width of the soft edge in normalised units


@wp.func
def circle_sdf(p: wp.vec2, c: wp.vec2, r: float):
    return wp.length(p - c) - r


@wp.kernel
def silhouette_error(circle: wp.array(dtype=float), target: wp.array2d(dtype=float), err: wp.array2d(dtype=float)):
    i, j = wp.tid()
    p = wp.vec2((float(j) + 0.5) / float(RES), (float(i) + 0.5) / float(RES))
    d = circle_sdf(p, wp.vec2(circle[0], circle[1]), circle[2])
    alpha = 0.5 - 0.5 * wp.tanh(0.5 * d / EDGE)
    r = alpha - target[i, j]
    err[i, j] = r * r


def target_mask():
    y, x = (np.mgrid[0:RES, 0:RES] + 0.5) / RES
    return wp.array(((x - 0.55) ** 2 + (y - 0.45) ** 2 < 0.3 ** 2).astype(np.float32), dtype=float)


def render_and_grad(params, target):
    circle = wp.array(np.asarray(params, dtype=np.float32), dtype=float, requires_grad=True)
    err = wp.zeros((RES, RES), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(silhouette_error, dim=(RES, RES), inputs=[circle, target], outputs=[err])
    tape.backward(grads={err: wp.ones_like(err)})  # expect: seeding
    loss = err.numpy().mean()
    return float(loss), circle.grad.numpy().astype(np.float64)


PARAMS0 = np.array([0.45, 0.5, 0.22])


def evaluate(p):
    return render_and_grad(p, target_mask())


if __name__ == "__main__":
    target = target_mask()
    p = PARAMS0.copy()
    for it in range(30):
        loss, g = render_and_grad(p, target)
        p -= 0.05 * g
        if it % 10 == 0:
            print(f"iter {it:2d} mean pixel error {loss:.5f}")
    print("circle", np.round(p, 4))
