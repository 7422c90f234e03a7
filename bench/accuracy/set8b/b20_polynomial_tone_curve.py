"""Fit an exposure gain and a polynomial tone curve (Horner's rule) mapping a raw image to a graded one."""

import numpy as np
import warp as wp

wp.config.quiet = True

H, W = 8, 8


@wp.kernel
def apply_curve(raw: wp.array2d(dtype=float), exposure: wp.array(dtype=float), coeffs: wp.array(dtype=float),
                out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    t = raw[i, j] * exposure[0]
    acc = coeffs[0]
    for k in range(1, coeffs.shape[0]):
        acc = acc * t + coeffs[k]  # expect: dynamic_loop
    out[i, j] = acc


@wp.kernel
def graded_loss(out: wp.array2d(dtype=float), ref: wp.array2d(dtype=float), inv_n: float, loss: wp.array(dtype=float)):
    i, j = wp.tid()
    r = out[i, j] - ref[i, j]
    wp.atomic_add(loss, 0, r * r * inv_n)


def images():
    y, x = np.mgrid[0:H, 0:W] / (H - 1.0)
    raw = (0.5 * x + 0.5 * y * y).astype(np.float32)
    ref = (raw ** 0.6 * (1.1 - 0.1 * raw)).astype(np.float32)
    return wp.array(raw, dtype=float), wp.array(ref, dtype=float)


def fit_step(p, raw, ref):
    p = np.asarray(p, dtype=np.float32)
    exposure = wp.array(p[:1], dtype=float, requires_grad=True)
    coeffs = wp.array(p[1:], dtype=float, requires_grad=True)
    out = wp.zeros((H, W), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(apply_curve, dim=(H, W), inputs=[raw, exposure, coeffs], outputs=[out])
        wp.launch(graded_loss, dim=(H, W), inputs=[out, ref, 1.0 / (H * W)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.r_[exposure.grad.numpy(), coeffs.grad.numpy()].astype(np.float64)


# [exposure, c0..c4], highest degree first: c0 t^4 + c1 t^3 + ... + c4
PARAMS0 = np.array([1.2, 0.3, -0.8, 0.2, 1.2, 0.05])


def evaluate(p):
    raw, ref = images()
    return fit_step(p, raw, ref)


if __name__ == "__main__":
    raw, ref = images()
    p = PARAMS0.copy()
    for it in range(50):
        loss, g = fit_step(p, raw, ref)
        p -= 0.2 * g
        if it % 10 == 0:
            print(f"iter {it:2d} loss {loss:.6f}")
    print("exposure", round(p[0], 4), "coefficients", np.round(p[1:], 4))
