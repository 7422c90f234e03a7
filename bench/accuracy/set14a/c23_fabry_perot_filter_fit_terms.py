# correct: the runtime-bound loop only accumulates independently computed partial waves with += and the sums are stored linearly; the modulus is taken in a separate kernel.
"""Fabry-Perot etalon: mirror reflectance and gap from a measured transmission spectrum.

The transmitted field is the sum of the multiply reflected partial waves,
t1 t2 sum_k (r1 r2 e^{i delta})^k, summed over n_bounce round trips; the
transmission spectrum over 1540-1560 nm is fitted to the measured one.
"""
import numpy as np
import warp as wp

LAMS = np.linspace(1.540, 1.560, 41).astype(np.float32)  # um
N_BOUNCE = 12
PARAMS0 = np.array([0.36, 50.02])  # mirror intensity reflectance R, gap (um)
FD_EPS = [1e-4, 1e-3]


@wp.kernel
def partial_waves(lam: wp.array(dtype=float), prm: wp.array(dtype=float), n_bounce: int, field: wp.array(dtype=wp.vec2)):
    w = wp.tid()
    R = prm[0]
    delta = 4.0 * wp.pi * prm[1] / lam[w]
    s = wp.vec2(0.0, 0.0)
    for k in range(n_bounce):
        amp = (1.0 - R) * wp.pow(R, float(k))
        s += wp.vec2(amp * wp.cos(float(k) * delta), amp * wp.sin(float(k) * delta))
    field[w] = s


@wp.kernel
def transmission(field: wp.array(dtype=wp.vec2), T: wp.array(dtype=float)):
    w = wp.tid()
    T[w] = wp.dot(field[w], field[w])


@wp.kernel
def spectrum_misfit(T: wp.array(dtype=float), meas: wp.array(dtype=float), loss: wp.array(dtype=float)):
    w = wp.tid()
    d = T[w] - meas[w]
    wp.atomic_add(loss, 0, d * d)


def _measured():
    R, gap = 0.38, 50.0
    delta = 4 * np.pi * gap / LAMS.astype(np.float64)
    return ((1 - R) ** 2 / (1 + R * R - 2 * R * np.cos(delta))).astype(np.float32)


MEAS = _measured()


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    field = wp.zeros(len(LAMS), dtype=wp.vec2, requires_grad=True)
    T = wp.zeros(len(LAMS), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(partial_waves, dim=len(LAMS), inputs=[wp.array(LAMS, dtype=float), prm, N_BOUNCE], outputs=[field])
        wp.launch(transmission, dim=len(LAMS), inputs=[field], outputs=[T])
        wp.launch(spectrum_misfit, dim=len(LAMS), inputs=[T, wp.array(MEAS, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"spectral misfit {L:.5f}; d/d(R, gap) = {g}")
