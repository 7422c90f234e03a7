"""Estimate a sub-pixel shift between two smooth images by minimising the mean photometric error."""
import numpy as np
import warp as wp

H, W = 16, 24


@wp.func
def pattern(x: float, y: float):
    return wp.sin(0.35 * x) * wp.cos(0.25 * y) + 0.3 * wp.sin(0.1 * x * y / 8.0)


@wp.kernel
def photometric(ref: wp.array2d(dtype=float), shift: wp.array(dtype=wp.vec2), err: wp.array2d(dtype=float)):
    y, x = wp.tid()
    s = shift[0]
    warped = pattern(float(x) + s[0], float(y) + s[1])
    d = warped - ref[y, x]
    err[y, x] = d * d


yy, xx = np.meshgrid(np.arange(H), np.arange(W), indexing="ij")
true_shift = (0.6, -0.4)
xs, ys = xx + true_shift[0], yy + true_shift[1]
ref_np = (np.sin(0.35 * xs) * np.cos(0.25 * ys) + 0.3 * np.sin(0.1 * xs * ys / 8.0)).astype(np.float32)

ref = wp.array(ref_np, dtype=float)
shift = wp.array([wp.vec2(0.0, 0.0)], dtype=wp.vec2, requires_grad=True)
err = wp.zeros((H, W), dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(photometric, dim=(H, W), inputs=[ref, shift], outputs=[err])

mean_error = float(err.numpy().mean())
# gradient of the mean w.r.t. each pixel error, then the reverse pass
err.grad.fill_(1.0 / err.shape[0])  # expect: seeding
tape.backward()

shift_grad = shift.grad.numpy()[0].copy()
print(f"mean photometric error {mean_error:.6f}  d/dshift {shift_grad}")
