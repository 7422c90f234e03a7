"""Fitting a detector's photon-count model by Poisson maximum likelihood: the program computes the negative
log-likelihood on the host (``np.sum(lam - counts * np.log(lam))``) but seeds the expected counts' gradient
with the Gaussian residual ``lam - counts``, the derivative of a least-squares loss, not of the one it reports
(``1 - counts / lam``).  Tapewatch differentiates the host expression along random directions and finds the
seed predicts other rates."""

import numpy as np
import warp as wp

wp.config.quiet = True

BINS = 24
ENERGY = np.linspace(0.5, 6.0, BINS).astype(np.float32)
COUNTS = np.round(40.0 * np.exp(-0.45 * ENERGY) + 3.0).astype(np.float32)


@wp.kernel
def expected_counts(theta: wp.array(dtype=float), energy: wp.array(dtype=float), lam: wp.array(dtype=float)):
    i = wp.tid()
    lam[i] = theta[0] * wp.exp(-theta[1] * energy[i]) + theta[2]


class PhotonCountFit:
    def __init__(self):
        self.theta = wp.array([35.0, 0.4, 2.5], dtype=float, requires_grad=True)
        self.energy = wp.array(ENERGY, dtype=float)
        self.rate = wp.zeros(BINS, dtype=float, requires_grad=True)

    def step(self, lr):
        tape = wp.Tape()
        with tape:
            wp.launch(expected_counts, dim=BINS, inputs=[self.theta, self.energy], outputs=[self.rate])
        lam = self.rate.numpy()
        nll = float(np.sum(lam - COUNTS * np.log(lam)))
        self.rate.grad.assign(wp.array(lam - COUNTS, dtype=float))  # expect: TW204
        tape.backward()
        theta = self.theta.numpy() - lr * self.theta.grad.numpy()
        self.theta.assign(theta)
        tape.zero()
        return nll


fit = PhotonCountFit()
for it in range(3):
    print("negative log-likelihood", fit.step(1e-4))
