"""Align a 2-D template by a brightness offset and gain; the reverse pass is seeded by hand for a mean error.

The reported objective is the mean over every pixel; the seed divides by the
number of rows only.
"""

import numpy as np
import warp as wp

H, W = 12, 20


@wp.kernel
def residual(img: wp.array2d(dtype=float), ref: wp.array2d(dtype=float), gain_offset: wp.array(dtype=wp.vec2),
             err: wp.array2d(dtype=float)):
    i, j = wp.tid()
    p = gain_offset[0]
    r = p[0] * img[i, j] + p[1] - ref[i, j]
    err[i, j] = r * r


def gradient(img, ref, params):
    err = wp.zeros((H, W), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(residual, dim=(H, W), inputs=[img, ref, params], outputs=[err])
    objective = float(err.numpy().mean())
    err.grad.fill_(1.0 / err.shape[0])  # expect: TW204
    tape.backward()
    return objective, params.grad.numpy()[0].copy()


if __name__ == "__main__":
    rng = np.random.default_rng(8)
    img_np = rng.uniform(0.0, 1.0, (H, W)).astype(np.float32)
    img = wp.array(img_np, dtype=float)
    ref = wp.array(1.3 * img_np + 0.2, dtype=float)
    params = wp.array([wp.vec2(1.0, 0.0)], dtype=wp.vec2, requires_grad=True)
    print("mean error and gradient:", gradient(img, ref, params))
