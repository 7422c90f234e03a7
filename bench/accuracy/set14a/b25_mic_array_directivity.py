"""Directivity index of a delay-and-sum microphone array in diffuse noise.

Eight microphones on a line with spacing d; in a diffuse field the noise coherence
between microphones i and j is sinc(k r_ij). The directivity index
DI = 10 log10(|sum w|^2 / sum_ij w_i w_j sinc(k r_ij)) of the broadside array is
evaluated at frequency f and maximised over (d, f-band centre).
"""
import numpy as np
import warp as wp

N_MIC = 8
C_AIR = 343.0
PARAMS0 = np.array([0.045, 2500.0])  # spacing d (m), frequency (Hz)
FD_EPS = [1e-5, 0.5]


@wp.kernel
def noise_coherence(prm: wp.array(dtype=float), c: float, gamma: wp.array(dtype=float)):
    i, j = wp.tid()
    d = wp.vec2(float(i - j) * prm[0], 0.0)
    r = wp.length(d)
    k = 2.0 * wp.pi * prm[1] / c
    kr = k * r  # expect: nonfinite
    s = wp.where(kr > 1.0e-6, wp.sin(kr) / kr, 1.0)
    wp.atomic_add(gamma, 0, s)


@wp.kernel
def directivity(gamma: wp.array(dtype=float), n: float, loss: wp.array(dtype=float)):
    loss[0] = -10.0 * wp.log10(n * n / gamma[0])


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    gamma = wp.zeros(1, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(noise_coherence, dim=(N_MIC, N_MIC), inputs=[prm, C_AIR], outputs=[gamma])
        wp.launch(directivity, dim=1, inputs=[gamma, float(N_MIC)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"DI {-L:.2f} dB; d(-DI)/d(d, f) = {g}")
