"""Calibrate a thermistor model (Steinhart-Hart style) against reference readings.

The objective is the mean squared error over all readings.
"""
import numpy as np
import warp as wp

READINGS = 40


@wp.kernel
def per_reading_error(
    resistance: wp.array(dtype=wp.float64),
    reference_temp: wp.array(dtype=wp.float64),
    coeffs: wp.array(dtype=wp.float64),
    sq_error: wp.array(dtype=wp.float64),
):
    i = wp.tid()
    ln_r = wp.log(resistance[i])
    inv_t = coeffs[0] + coeffs[1] * ln_r + coeffs[2] * ln_r * ln_r * ln_r
    predicted = wp.float64(1.0) / inv_t
    e = predicted - reference_temp[i]
    sq_error[i] = e * e


def make_readings():
    rng = np.random.default_rng(2)
    r = np.geomspace(500.0, 50000.0, READINGS)
    true = np.array([1.1e-3, 2.4e-4, 7.0e-8])
    lnr = np.log(r)
    t = 1.0 / (true[0] + true[1] * lnr + true[2] * lnr**3) + rng.normal(scale=0.05, size=READINGS)
    return wp.array(r, dtype=wp.float64), wp.array(t, dtype=wp.float64)


def mse_gradient(coeffs, resistance, reference_temp):
    sq_error = wp.zeros(READINGS, dtype=wp.float64, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(per_reading_error, dim=READINGS, inputs=[resistance, reference_temp, coeffs], outputs=[sq_error])
    mse = float(sq_error.numpy().mean())
    tape.backward(grads={sq_error: wp.ones(READINGS, dtype=wp.float64)})  # expect: TW204
    return mse, coeffs.grad.numpy().copy(), tape


if __name__ == "__main__":
    wp.init()
    resistance, reference_temp = make_readings()
    coeffs = wp.array([1.0e-3, 2.5e-4, 6.0e-8], dtype=wp.float64, requires_grad=True)
    scale = np.array([1e-3, 1e-4, 1e-8])
    for it in range(5):
        mse, grad, tape = mse_gradient(coeffs, resistance, reference_temp)
        print(f"iter {it}: mse={mse:.5f} K^2  scaled grad={grad * scale}")
        # gradient step in scaled coordinates (coeffs / scale)
        coeffs.assign(coeffs.numpy() - 2e-6 * grad * scale * scale)
        tape.zero()
