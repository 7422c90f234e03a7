"""Diffractive flat-top beam shaper: phase-plate coefficients by gradient descent.

A Gaussian beam passes a phase plate phi(x) = a2 x^2 + a4 x^4 (x in beam radii) and
propagates 40 mm by the angular-spectrum method, which is done with NumPy FFTs on
the host and attached to the tape with Tape.record_func; the intensity at the target
plane is matched to a super-Gaussian flat top.
"""
import numpy as np
import warp as wp

N = 128
DX = 0.02          # mm
LAM = 0.633e-3     # mm
Z = 40.0           # mm
X = ((np.arange(N) - N / 2) * DX).astype(np.float32)
W0 = 0.4
_fx = np.fft.fftfreq(N, DX)
H = np.exp(1j * 2 * np.pi * Z * np.sqrt(np.maximum(1 / LAM ** 2 - _fx ** 2, 0.0)))
TARGET = (0.6 * np.exp(-((X / 0.5) ** 8))).astype(np.float32)
PARAMS0 = np.array([1.5, -0.8])  # a2, a4 (rad)
FD_EPS = 1e-3


@wp.kernel
def phase_plate(x: wp.array(dtype=float), prm: wp.array(dtype=float), w0: float, re: wp.array(dtype=float),
                im: wp.array(dtype=float)):
    i = wp.tid()
    u = x[i] / w0
    amp = wp.exp(-u * u)
    ph = prm[0] * u * u + prm[1] * u * u * u * u
    re[i] = amp * wp.cos(ph)
    im[i] = amp * wp.sin(ph)


@wp.kernel
def intensity_misfit(re: wp.array(dtype=float), im: wp.array(dtype=float), target: wp.array(dtype=float),
                     loss: wp.array(dtype=float)):
    i = wp.tid()
    d = re[i] * re[i] + im[i] * im[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    re0 = wp.zeros(N, dtype=float, requires_grad=True)
    im0 = wp.zeros(N, dtype=float, requires_grad=True)
    re1 = wp.zeros(N, dtype=float, requires_grad=True)
    im1 = wp.zeros(N, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)

    def propagate_adjoint():
        g = re1.grad.numpy() + 1j * im1.grad.numpy()
        g0 = np.fft.ifft(H * np.fft.fft(g))  # expect: custom_adjoint
        re0.grad.assign(re0.grad.numpy() + g0.real.astype(np.float32))
        im0.grad.assign(im0.grad.numpy() + g0.imag.astype(np.float32))

    tape = wp.Tape()
    with tape:
        wp.launch(phase_plate, dim=N, inputs=[wp.array(X, dtype=float), prm, W0], outputs=[re0, im0])
        u1 = np.fft.ifft(H * np.fft.fft(re0.numpy() + 1j * im0.numpy()))
        re1.assign(u1.real.astype(np.float32))
        im1.assign(u1.imag.astype(np.float32))
        tape.record_func(backward=propagate_adjoint, arrays=[re0, im0, re1, im1])
        wp.launch(intensity_misfit, dim=N, inputs=[re1, im1, wp.array(TARGET, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"flat-top misfit {L:.5f}; d/d(a2, a4) = {g}")
