"""Aberration retrieval from a measured through-focus PSF cut (defocus, spherical, gain).

A Microscope object holds the pupil sampling and the measured PSF; the pupil phase for
the current aberration estimate is prepared when the estimate is set, and the fit
evaluates the PSF misfit and its gradient with respect to (W20, W40, gain).
"""
import numpy as np
import warp as wp

from _psf import N_IMG, N_PUP, U, measured_psf, psf_dft, psf_misfit, pupil_phase

PARAMS0 = np.array([0.30, 0.10, 1.0])  # W20, W40 (waves), detector gain
FD_EPS = 1e-3


class Microscope:
    def __init__(self):
        self.u = wp.array(U, dtype=float)
        self.meas = wp.array(measured_psf(), dtype=float)

    def set_estimate(self, prm):
        self.prm = prm
        self.phase = self.pupil(prm)

    def pupil(self, prm):
        ph = wp.zeros(N_PUP, dtype=float, requires_grad=True)
        wp.launch(pupil_phase, dim=N_PUP, inputs=[self.u, prm], outputs=[ph])
        return ph

    def misfit(self):
        ph = self.phase  # expect: truncation
        re = wp.zeros(N_IMG, dtype=float, requires_grad=True)
        im = wp.zeros(N_IMG, dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        wp.launch(psf_dft, dim=(N_IMG, N_PUP), inputs=[ph, self.u], outputs=[re, im])
        wp.launch(psf_misfit, dim=N_IMG, inputs=[re, im, self.prm, self.meas], outputs=[loss])
        return loss


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    scope = Microscope()
    scope.set_estimate(prm)
    tape = wp.Tape()
    with tape:
        loss = scope.misfit()
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"PSF misfit {L:.3e}; d/d(W20, W40, gain) = {g}")
