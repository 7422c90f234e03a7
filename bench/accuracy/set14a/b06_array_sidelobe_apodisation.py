"""Side-lobe energy of a steered ultrasound linear array.

A Gaussian apodisation of relative width sigma and a steering angle theta0 define the
transmit weights and delays of a 32-element phased array; the fraction of the radiated
energy outside the main lobe is minimised. The beamformer keeps its buffers in a class.
"""
import numpy as np
import warp as wp

from _transducer import ANGLES, MAIN_LOBE, N_ANG, N_EL, X_EL, array_factor, gaussian_apodisation, lobe_energy, sidelobe_ratio

PARAMS0 = np.array([0.45, 0.32])  # sigma (fraction of the half aperture), theta0 (rad)
FD_EPS = 1e-3


class PhasedArray:
    def __init__(self):
        self.x = wp.array(X_EL, dtype=float)
        self.ang = wp.array(ANGLES, dtype=float)
        self.main = wp.array(MAIN_LOBE, dtype=float)
        self.w = wp.zeros(N_EL, dtype=float)  # expect: requires_grad
        self.re = wp.zeros(N_ANG, dtype=float, requires_grad=True)
        self.im = wp.zeros(N_ANG, dtype=float, requires_grad=True)
        self.s = wp.zeros(2, dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    def sidelobes(self, prm):
        half_ap = float(np.abs(X_EL).max())
        wp.launch(gaussian_apodisation, dim=N_EL, inputs=[self.x, prm, half_ap], outputs=[self.w])
        wp.launch(array_factor, dim=(N_ANG, N_EL), inputs=[self.x, self.w, prm, self.ang], outputs=[self.re, self.im])
        wp.launch(lobe_energy, dim=N_ANG, inputs=[self.re, self.im, self.main], outputs=[self.s])
        wp.launch(sidelobe_ratio, dim=1, inputs=[self.s], outputs=[self.loss])
        return self.loss


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    arr = PhasedArray()
    tape = wp.Tape()
    with tape:
        loss = arr.sidelobes(prm)
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"side-lobe energy fraction {L:.4f}; d/d(sigma, theta0) = {g}")
