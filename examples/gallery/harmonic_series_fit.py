"""Fit a 24-harmonic Fourier series (and its base frequency) to a sampled periodic waveform."""

import numpy as np
import warp as wp

HARMONICS = 24


@wp.kernel
def series_residual(
    times: wp.array(dtype=float),
    samples: wp.array(dtype=float),
    cos_coeffs: wp.array(dtype=float),
    sin_coeffs: wp.array(dtype=float),
    omega: wp.array(dtype=float),
    loss: wp.array(dtype=float),
):
    i = wp.tid()
    t = times[i]
    value = float(0.0)
    for k in range(HARMONICS):  # expect: TW303
        phase = float(k) * omega[0] * t
        value += cos_coeffs[k] * wp.cos(phase) + sin_coeffs[k] * wp.sin(phase)
    r = value - samples[i]
    wp.atomic_add(loss, 0, r * r)


def sawtooth(n=200):
    t = np.linspace(0.0, 2.0, n, endpoint=False).astype(np.float32)
    y = (2.0 * ((1.03 * t) % 1.0) - 1.0).astype(np.float32)
    return t, y


def main():
    t_np, y_np = sawtooth()
    times = wp.array(t_np, dtype=float)
    samples = wp.array(y_np, dtype=float)
    cos_coeffs = wp.zeros(HARMONICS, dtype=float, requires_grad=True)
    sin_coeffs = wp.zeros(HARMONICS, dtype=float, requires_grad=True)
    omega = wp.array([2.0 * np.pi], dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)

    lr = 2e-3
    for it in range(150):
        loss.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(series_residual, dim=len(t_np), inputs=[times, samples, cos_coeffs, sin_coeffs, omega], outputs=[loss])
        tape.backward(loss)
        cos_coeffs.assign(cos_coeffs.numpy() - lr * cos_coeffs.grad.numpy())  # note: TW408
        sin_coeffs.assign(sin_coeffs.numpy() - lr * sin_coeffs.grad.numpy())
        omega.assign(omega.numpy() - 1e-5 * omega.grad.numpy())
        if it % 30 == 0:
            print(f"iter {it:3d} loss {loss.numpy()[0]:.4f} omega {omega.numpy()[0]:.4f}")
        tape.zero()

    print("leading sine coefficients", np.round(sin_coeffs.numpy()[:5], 3), "omega", omega.numpy()[0])


if __name__ == "__main__":
    main()
