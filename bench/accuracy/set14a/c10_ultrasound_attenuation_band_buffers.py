# correct: each band writes its own freshly allocated retain_grad buffer exactly once, so no retained gradient is shared between two writers.
"""Frequency-compounded attenuation estimate for pulse-echo ultrasound in tissue.

The attenuation follows a power law alpha(f) = alpha0 f^n (Np/cm/MHz^n). A broadband
pulse is split into six bands; the echo envelope of each band is computed into its own
band buffer and added, with the pulse's spectral weight, to the compounded echo
energy. The log of the compounded energy versus depth is fitted to a measured curve.
Each band buffer keeps its gradient for a per-band sensitivity plot.
"""
import numpy as np
import warp as wp

N_Z = 80
DEPTH = np.linspace(0.2, 6.0, N_Z).astype(np.float32)  # cm
BANDS = np.array([2.0, 2.5, 3.0, 3.5, 4.0, 4.5], dtype=np.float32)  # MHz
SPECTRUM = np.exp(-0.5 * ((BANDS - 3.2) / 0.8) ** 2).astype(np.float32)
PARAMS0 = np.array([0.06, 1.1])  # alpha0, n
FD_EPS = [1e-4, 1e-3]


def measured_log_energy():
    a = 0.055 * BANDS[:, None] ** 1.05
    e = (SPECTRUM[:, None] * np.exp(-2.0 * a * DEPTH[None, :])).sum(0)
    return np.log(e).astype(np.float32)


@wp.kernel
def band_echo(z: wp.array(dtype=float), prm: wp.array(dtype=float), f: float, echo: wp.array(dtype=float)):
    k = wp.tid()
    alpha = prm[0] * wp.pow(f, prm[1])
    echo[k] = wp.exp(-2.0 * alpha * z[k])


@wp.kernel
def compound(echo: wp.array(dtype=float), weight: float, total: wp.array(dtype=float)):
    k = wp.tid()
    wp.atomic_add(total, k, weight * echo[k])


@wp.kernel
def log_misfit(total: wp.array(dtype=float), meas: wp.array(dtype=float), loss: wp.array(dtype=float)):
    k = wp.tid()
    d = wp.log(total[k]) - meas[k]
    wp.atomic_add(loss, 0, d * d / float(total.shape[0]))


MEAS = measured_log_energy()


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    z = wp.array(DEPTH, dtype=float)
    meas = wp.array(MEAS, dtype=float)
    total = wp.zeros(N_Z, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for f, w in zip(BANDS, SPECTRUM):
            echo = wp.zeros(N_Z, dtype=float, requires_grad=True, retain_grad=True)
            wp.launch(band_echo, dim=N_Z, inputs=[z, prm, float(f)], outputs=[echo])
            wp.launch(compound, dim=N_Z, inputs=[echo, float(w)], outputs=[total])
        wp.launch(log_misfit, dim=N_Z, inputs=[total, meas], outputs=[loss])
    tape.backward(loss)
    evaluate.band_sensitivity = echo.grad.numpy().copy()
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"misfit {L:.5f}; d/d(alpha0, n) = {g}")
