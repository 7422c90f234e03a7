"""Phase-only Fourier hologram shaping a three-spot pattern (beam splitter design).

The SLM phase is phi(x) = a x^2 + b x^3 + c sin(6 pi x); the focal-plane intensity is
matched to a target with three equal spots. The focal intensity is kept with
its gradient retained to show where the pattern wants more light, and a diffraction
efficiency monitor is logged during the forward pass.
"""
import numpy as np
import warp as wp

from _hologram import N_FOCAL, N_PIX, far_field, intensity, mask_phase, spot_misfit

TARGET = np.zeros(N_FOCAL, dtype=np.float32)
TARGET[[N_FOCAL // 2 - 3, N_FOCAL // 2, N_FOCAL // 2 + 3]] = 0.25
PARAMS0 = np.array([4.0, 2.0, 1.2])
FD_EPS = 1e-3


class Hologram:
    def __init__(self):
        self.phi = wp.zeros(N_PIX, dtype=float, requires_grad=True)
        self.re = wp.zeros(N_FOCAL, dtype=float, requires_grad=True)
        self.im = wp.zeros(N_FOCAL, dtype=float, requires_grad=True)
        self.I = wp.zeros(N_FOCAL, dtype=float, requires_grad=True, retain_grad=True)

    def focal_intensity(self, prm):
        wp.launch(mask_phase, dim=N_PIX, inputs=[prm], outputs=[self.phi])
        wp.launch(far_field, dim=N_FOCAL, inputs=[self.phi], outputs=[self.re, self.im])
        wp.launch(intensity, dim=N_FOCAL, inputs=[self.re, self.im], outputs=[self.I])
        return self.I

    def spot_efficiency(self, prm):
        I = self.focal_intensity(prm).numpy()
        return float(I[TARGET > 0].sum() / I.sum())


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    holo = Hologram()
    target = wp.array(TARGET, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        I = holo.focal_intensity(prm)
        evaluate.efficiency = holo.spot_efficiency(prm)  # expect: retain_grad
        wp.launch(spot_misfit, dim=N_FOCAL, inputs=[I, target], outputs=[loss])
    tape.backward(loss)
    evaluate.sensitivity = holo.I.grad.numpy().copy()
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"misfit {L:.5f}; dL/d(a, b, c) = {g}; max |dL/dI| {np.abs(evaluate.sensitivity).max():.4f}")
