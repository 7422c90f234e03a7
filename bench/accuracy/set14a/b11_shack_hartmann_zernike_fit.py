"""Wavefront reconstruction from Shack-Hartmann slopes (modal, five Zernike terms).

An 8 x 8 lenslet array measures local wavefront slopes; the modal model is defocus,
two astigmatisms and two comas. The per-lenslet squared slope residuals are computed
in a kernel; the fit objective is their mean, and backward is seeded by hand on the
residual array.
"""
import numpy as np
import warp as wp

N_SIDE = 8
_g = (np.arange(N_SIDE) + 0.5) / N_SIDE * 2.0 - 1.0
_xx, _yy = np.meshgrid(_g, _g, indexing="ij")
_in = _xx ** 2 + _yy ** 2 <= 1.0
PUPIL = np.stack([_xx[_in], _yy[_in]], axis=1).astype(np.float32)
N_LENS = len(PUPIL)
PARAMS0 = np.array([0.30, -0.10, 0.05, 0.08, -0.02])


@wp.func
def zernike_slope(x: float, y: float, c: wp.array(dtype=float)):
    # gradients of Z4 = 2r^2-1, Z5 = 2xy, Z6 = x^2-y^2, Z7 = (3r^2-2)y, Z8 = (3r^2-2)x
    r2 = x * x + y * y
    sx = c[0] * 4.0 * x + c[1] * 2.0 * y + c[2] * 2.0 * x + c[3] * 6.0 * x * y + c[4] * (3.0 * r2 - 2.0 + 6.0 * x * x)
    sy = c[0] * 4.0 * y + c[1] * 2.0 * x - c[2] * 2.0 * y + c[3] * (3.0 * r2 - 2.0 + 6.0 * y * y) + c[4] * 6.0 * x * y
    return wp.vec2(sx, sy)


@wp.kernel
def slope_residual(pupil: wp.array(dtype=wp.vec2), meas: wp.array(dtype=wp.vec2), c: wp.array(dtype=float),
                   err: wp.array(dtype=float)):
    k = wp.tid()
    d = zernike_slope(pupil[k][0], pupil[k][1], c) - meas[k]
    err[k] = wp.dot(d, d)


def measured_slopes():
    rng = np.random.default_rng(2)
    true = np.array([0.35, -0.12, 0.02, 0.10, 0.0], dtype=np.float32)
    x, y = PUPIL[:, 0], PUPIL[:, 1]
    r2 = x * x + y * y
    sx = true[0] * 4 * x + true[1] * 2 * y + true[2] * 2 * x + true[3] * 6 * x * y + true[4] * (3 * r2 - 2 + 6 * x * x)
    sy = true[0] * 4 * y + true[1] * 2 * x - true[2] * 2 * y + true[3] * (3 * r2 - 2 + 6 * y * y) + true[4] * 6 * x * y
    return (np.stack([sx, sy], 1) + 0.02 * rng.standard_normal((N_LENS, 2))).astype(np.float32)


MEAS = measured_slopes()


def evaluate(p):
    c = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    pupil = wp.array(PUPIL, dtype=wp.vec2)
    meas = wp.array(MEAS, dtype=wp.vec2)
    err = wp.zeros(N_LENS, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(slope_residual, dim=N_LENS, inputs=[pupil, meas, c], outputs=[err])
    err.grad.fill_(1.0)  # expect: seeding
    tape.backward()
    mse = float(err.numpy().mean())
    return mse, c.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"{N_LENS} lenslets; mean squared slope residual {L:.5f}; gradient {g}")
