# correct: the apodisation weight multiplies the sample in the expression that assigns it; the only in-place update is += of the Hann-tapered echo, which is differentiable.
"""Receive apodisation of a linear-array ultrasound scanner: lateral PSF side lobes.

The echo of a point target at 30 mm is sampled on every channel at the delay-and-sum
focusing times of 41 image lines; each channel sample is weighted by a cosine^p
receive apodisation and summed. The energy of the lateral PSF outside the main lobe
(relative to the total) is minimised over the apodisation power p and the receive
f-number F.
"""
import numpy as np
import warp as wp

N_CH = 48
N_LINE = 41
X_CH = np.linspace(-11.75, 11.75, N_CH).astype(np.float32)   # mm
X_LINE = np.linspace(-4.0, 4.0, N_LINE).astype(np.float32)
Z_T = 30.0
C = 1.54
F0 = 5.0
MAIN = (np.abs(X_LINE) < 0.6).astype(np.float32)
PARAMS0 = np.array([1.5, 1.2])  # p, F-number
FD_EPS = 1e-3


@wp.kernel
def channel_samples(xc: wp.array(dtype=float), xl: wp.array(dtype=float), prm: wp.array(dtype=float), z: float,
                    c: float, f0: float, s: wp.array2d(dtype=float)):
    k, ch = wp.tid()
    # echo of the target at x = 0, sampled at the focusing delay of line k
    t_true = (z + wp.sqrt(xc[ch] * xc[ch] + z * z)) / c
    t_foc = (z + wp.sqrt((xc[ch] - xl[k]) * (xc[ch] - xl[k]) + z * z)) / c
    dt = t_foc - t_true
    half = z / (2.0 * prm[1])
    u = wp.min(wp.abs(xc[ch] - xl[k]) / half, 1.0)
    w = wp.pow(wp.cos(0.5 * wp.pi * u) + 1.0e-3, prm[0])
    s[k, ch] = w * wp.cos(2.0 * wp.pi * f0 * dt) * wp.exp(-(dt * f0) * (dt * f0))
    s[k, ch] += 0.05 * w * wp.cos(2.0 * wp.pi * f0 * dt) * wp.exp(-4.0 * (dt * f0) * (dt * f0))


@wp.kernel
def delay_and_sum(s: wp.array2d(dtype=float), b: wp.array(dtype=float)):
    k, ch = wp.tid()
    wp.atomic_add(b, k, s[k, ch])


@wp.kernel
def lobe_energy(b: wp.array(dtype=float), main: wp.array(dtype=float), e: wp.array(dtype=float)):
    k = wp.tid()
    wp.atomic_add(e, 0, b[k] * b[k] * (1.0 - main[k]))
    wp.atomic_add(e, 1, b[k] * b[k])


@wp.kernel
def ratio(e: wp.array(dtype=float), loss: wp.array(dtype=float)):
    loss[0] = e[0] / e[1]


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    s = wp.zeros((N_LINE, N_CH), dtype=float, requires_grad=True)
    b = wp.zeros(N_LINE, dtype=float, requires_grad=True)
    e = wp.zeros(2, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(channel_samples, dim=(N_LINE, N_CH), inputs=[wp.array(X_CH, dtype=float), wp.array(X_LINE, dtype=float),
                                                              prm, Z_T, C, F0], outputs=[s])
        wp.launch(delay_and_sum, dim=(N_LINE, N_CH), inputs=[s], outputs=[b])
        wp.launch(lobe_energy, dim=N_LINE, inputs=[b, wp.array(MAIN, dtype=float)], outputs=[e])
        wp.launch(ratio, dim=1, inputs=[e], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"side-lobe energy fraction {L:.4f}; d/d(p, F) = {g}")
