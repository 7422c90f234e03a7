# correct: the preview normalises the intensity in place through a NumPy view, but only after tape.backward() has consumed the intensities.
"""Speckle contrast versus laser bandwidth.

Five laser lines around lambda0 with fractional spacing delta illuminate a thin
diffuser; the detector sees the incoherent sum of their speckle patterns. The speckle
contrast C = std(I) / mean(I) falls as the lines spread; its gradient with respect to
(lambda0, delta) drives a despeckling design. A preview image is saved for the report.
"""
import numpy as np
import warp as wp

from _speckle import N_LINES, N_PIX, N_SCAT, DIST, buffers, contrast, geometry, incoherent_sum, moments, partial_fields

PARAMS0 = np.array([0.633, 0.004])  # lambda0 (um), delta
FD_EPS = [1e-4, 1e-4]


def evaluate(p):
    spec = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    xs, phi, xp = geometry()
    re, im, intensity, s, c = buffers()
    tape = wp.Tape()
    with tape:
        wp.launch(partial_fields, dim=(N_LINES, N_PIX, N_SCAT), inputs=[xs, phi, xp, spec, DIST], outputs=[re, im])
        wp.launch(incoherent_sum, dim=(N_LINES, N_PIX), inputs=[re, im], outputs=[intensity])
        wp.launch(moments, dim=N_PIX, inputs=[intensity], outputs=[s])
        wp.launch(contrast, dim=1, inputs=[s, float(N_PIX)], outputs=[c])
    tape.backward(c)
    img = intensity.numpy()
    img /= img.max()
    evaluate.preview = (255.0 * img).astype(np.uint8)
    return float(c.numpy()[0]), spec.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    C, g = evaluate(PARAMS0)
    print(f"speckle contrast {C:.4f}; dC/d(lambda0, delta) = {g}; preview max {evaluate.preview.max()}")
