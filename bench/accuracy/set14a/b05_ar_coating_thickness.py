"""Two-layer anti-reflection coating (MgF2 over ZrO2) on crown glass.

The mean reflectance over the visible band (450-650 nm, nine samples) is minimised over
the two physical thicknesses. This evaluates it and its gradient for a design step.
"""
import numpy as np
import warp as wp

from _thinfilm import band_mean, layer_phase, stack_reflectance

N_INDEX = np.array([1.38, 2.05], dtype=np.float32)  # outer, inner
N_SUB = 1.52
LAMBDAS = np.linspace(450.0, 650.0, 9).astype(np.float32)
PARAMS0 = np.array([95.0, 70.0])  # thicknesses (nm)
FD_EPS = 0.05


def evaluate(p):
    d = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    n_layer = wp.array(N_INDEX, dtype=float)
    lam = wp.array(LAMBDAS, dtype=float)
    delta = wp.zeros((len(LAMBDAS), 2), dtype=float)  # expect: requires_grad
    R = wp.zeros(len(LAMBDAS), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(layer_phase, dim=(len(LAMBDAS), 2), inputs=[d, n_layer, lam], outputs=[delta])
        wp.launch(stack_reflectance, dim=len(LAMBDAS), inputs=[delta, n_layer, N_SUB], outputs=[R])
        wp.launch(band_mean, dim=len(LAMBDAS), inputs=[R], outputs=[loss])
    tape.backward(loss)
    evaluate.R = R.numpy().copy()
    return float(loss.numpy()[0]), d.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"mean R {100 * L:.3f} %; dR/d(d1, d2) = {g} per nm; R(lambda) = {np.round(100 * evaluate.R, 2)}")
