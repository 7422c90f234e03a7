"""Identify the coefficient of restitution and the quadratic drag of tennis balls dropped
from four heights, from their heights 1.2 s after release."""
import numpy as np
import warp as wp

from _integrators import semi_implicit, ground_bounce, height_misfit

wp.config.quiet = True
wp.set_device("cpu")

DROPS = np.array([0.8, 1.0, 1.3, 1.6])
MEASURED = np.array([0.05, 0.33, 0.41, 0.30])
STEPS = 120
DT = 0.01


def simulate(coef, record=True):
    n = len(DROPS)
    hs = [wp.array(DROPS, dtype=wp.float64, requires_grad=True)]
    vs = [wp.zeros(n, dtype=wp.float64, requires_grad=True)]
    for k in range(STEPS):
        hs.append(wp.zeros(n, dtype=wp.float64, requires_grad=True))
        vs.append(wp.zeros(n, dtype=wp.float64, requires_grad=True))
        wp.launch(semi_implicit, dim=n, inputs=[hs[k], vs[k], coef, wp.float64(DT)], outputs=[hs[k + 1], vs[k + 1]])
        wp.launch(ground_bounce, dim=n, inputs=[hs[k + 1], vs[k + 1], coef])
    return hs


def evaluate(p):
    coef = wp.array(p, dtype=wp.float64, requires_grad=True)
    measured = wp.array(MEASURED, dtype=wp.float64)
    loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    with wp.Tape() as tape:
        hs = simulate(coef)
        wp.launch(height_misfit, dim=len(DROPS), inputs=[hs[-1], measured], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), coef.grad.numpy().copy()


PARAMS0 = np.array([0.72, 0.05])
FD_EPS = 1e-6


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(6):
        l, g = evaluate(p)
        p = p - 0.1 * g
        print(f"iter {it}: misfit {l:.5f}  e={p[0]:.4f} drag={p[1]:.4f}")
