# correct: the bounce writes a new velocity array; the only in-place update is an additive gravity kick
"""Identify the coefficient of restitution and the quadratic drag of tennis balls dropped
from four heights, from their heights 1.2 s after release (kick / drift / bounce split)."""
import numpy as np
import warp as wp

from _drops import drag_drift, gravity_kick, ground_bounce, height_misfit

wp.config.quiet = True
wp.set_device("cpu")

DROPS = np.array([0.8, 1.0, 1.3, 1.6])
MEASURED = np.array([0.05, 0.33, 0.41, 0.30])
STEPS = 120
DT = 0.01


def simulate(coef):
    n = len(DROPS)
    h = wp.array(DROPS, dtype=wp.float64, requires_grad=True)
    v = wp.zeros(n, dtype=wp.float64, requires_grad=True)
    for k in range(STEPS):
        wp.launch(gravity_kick, dim=n, inputs=[v, wp.float64(DT)])
        h_next = wp.zeros(n, dtype=wp.float64, requires_grad=True)
        v_mid = wp.zeros(n, dtype=wp.float64, requires_grad=True)
        wp.launch(drag_drift, dim=n, inputs=[h, v, coef, wp.float64(DT)], outputs=[h_next, v_mid])
        v_next = wp.zeros(n, dtype=wp.float64, requires_grad=True)
        wp.launch(ground_bounce, dim=n, inputs=[h_next, v_mid, coef], outputs=[v_next])
        h, v = h_next, v_next
    return h


def evaluate(p):
    coef = wp.array(p, dtype=wp.float64, requires_grad=True)
    measured = wp.array(MEASURED, dtype=wp.float64)
    loss = wp.zeros(1, dtype=wp.float64, requires_grad=True)
    with wp.Tape() as tape:
        h_final = simulate(coef)
        wp.launch(height_misfit, dim=len(DROPS), inputs=[h_final, measured], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), coef.grad.numpy().copy()


PARAMS0 = np.array([0.72, 0.05])
FD_EPS = 1e-6


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(6):
        l, g = evaluate(p)
        p = p - 0.05 * g
        print(f"iter {it}: misfit {l:.5f}  e={p[0]:.4f} drag={p[1]:.4f}")
