# correct: the pressure magnitude is taken with wp.length, whose adjoint Warp guards at zero, so the exact nodes of the dipole on the ring give finite gradients.
"""Acoustic holography of a dipole source: separation and frequency from |p| on a ring.

Two monopoles in antiphase (separation d, along x) radiate at frequency f; sixteen
microphones on a 1 m ring measure the pressure magnitude. The magnitudes predicted by
the free-field Green's function are fitted to the measurements.
"""
import numpy as np
import warp as wp

C_AIR = 343.0
N_MIC = 16
_phi = np.arange(N_MIC) * 2.0 * np.pi / N_MIC
MICS = np.stack([np.cos(_phi), np.sin(_phi)], 1).astype(np.float32)
PARAMS0 = np.array([0.12, 800.0])  # d (m), f (Hz)
FD_EPS = [1e-4, 0.05]


@wp.kernel
def ring_pressure(mics: wp.array(dtype=wp.vec2), prm: wp.array(dtype=float), c: float, p: wp.array(dtype=wp.vec2)):
    m = wp.tid()
    k = 2.0 * wp.pi * prm[1] / c
    s = wp.vec2(0.5 * prm[0], 0.0)
    r1 = wp.length(mics[m] - s)
    r2 = wp.length(mics[m] + s)
    p[m] = wp.vec2(wp.cos(k * r1) / r1 - wp.cos(k * r2) / r2, -wp.sin(k * r1) / r1 + wp.sin(k * r2) / r2)


@wp.kernel
def magnitude_misfit(p: wp.array(dtype=wp.vec2), meas: wp.array(dtype=float), loss: wp.array(dtype=float)):
    m = wp.tid()
    a = wp.length(p[m])
    d = a - meas[m]
    wp.atomic_add(loss, 0, d * d)


def _measured():
    k = 2 * np.pi * 760.0 / C_AIR
    s = np.array([0.07, 0.0])
    r1 = np.linalg.norm(MICS - s, axis=1)
    r2 = np.linalg.norm(MICS + s, axis=1)
    return np.abs(np.exp(-1j * k * r1) / r1 - np.exp(-1j * k * r2) / r2).astype(np.float32)


MEAS = _measured()


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    pr = wp.zeros(N_MIC, dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(ring_pressure, dim=N_MIC, inputs=[wp.array(MICS, dtype=wp.vec2), prm, C_AIR], outputs=[pr])
        wp.launch(magnitude_misfit, dim=N_MIC, inputs=[pr, wp.array(MEAS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"magnitude misfit {L:.5f}; d/d(d, f) = {g}")
