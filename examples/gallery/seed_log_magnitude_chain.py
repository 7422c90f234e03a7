"""Fit a star's mean flux and pulsation amplitude to photometry in magnitudes.

The chi-square is computed on the host on `m = -2.5 log10(F)`, and the
flux gradient is written into `flux.grad` before `tape.backward()`; the
seed is the derivative with respect to the magnitude, missing the
`dm/dF = -2.5 / (F ln 10)` of the chain rule.
"""

import numpy as np
import warp as wp

N = 24
PHASE = np.linspace(0.0, 2.0 * np.pi, N, endpoint=False).astype(np.float32)
M_OBS = -2.5 * np.log10(1.2 * (1.0 + 0.3 * np.sin(PHASE.astype(np.float64))))
SIGMA = 0.02


@wp.kernel
def light_curve(phase: wp.array(dtype=float), p: wp.array(dtype=float), flux: wp.array(dtype=float)):
    i = wp.tid()
    flux[i] = p[0] * (1.0 + p[1] * wp.sin(phase[i]))


class LightCurveFit:
    def __init__(self):
        self.phase = wp.array(PHASE, dtype=float)
        self.p = wp.array([1.0, 0.25], dtype=float, requires_grad=True)

    def chi2_and_gradient(self):
        flux = wp.zeros(N, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(light_curve, dim=N, inputs=[self.phase, self.p], outputs=[flux])
        f = flux.numpy().astype(np.float64)
        r = -2.5 * np.log10(f) - M_OBS
        chi2 = np.sum((r / SIGMA) ** 2)
        flux.grad.assign((2.0 * r / SIGMA**2).astype(np.float32))  # expect: TW204
        tape.backward()
        grad = self.p.grad.numpy().copy()
        tape.zero()
        return chi2, grad


if __name__ == "__main__":
    fit = LightCurveFit()
    for _ in range(3):
        chi2, g = fit.chi2_and_gradient()
        fit.p.assign(fit.p.numpy() - 1e-6 * g)
        print("chi2", chi2)
