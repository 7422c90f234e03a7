"""Steering the programmed focus of a HIFU array onto a tumour behind an aberrating layer.

The array controller computes geometric focusing delays for a programmed focus
(x_f, z_f); the delays are then handed to the beamformer buffer, and the acoustic
intensity at the tumour (3, 60) mm is maximised over the programmed focus.
"""
import numpy as np
import warp as wp

from _hifu import ABERRATION, C0, F0, N_EL, TARGET, X_EL, focusing_delays, neg_intensity, pressure_at

PARAMS0 = np.array([2.0, 58.0])  # programmed focus (mm)
FD_EPS = 4e-3


def evaluate(p):
    prm = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    x = wp.array(X_EL, dtype=float)
    ab = wp.array(ABERRATION, dtype=float)
    tau = wp.zeros(N_EL, dtype=float, requires_grad=True)
    re = wp.zeros(1, dtype=float, requires_grad=True)
    im = wp.zeros(1, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(focusing_delays, dim=N_EL, inputs=[x, prm, C0], outputs=[tau])
        tx_delays = wp.array(tau.numpy(), dtype=float, requires_grad=True)  # expect: truncation
        wp.launch(pressure_at, dim=N_EL, inputs=[x, tx_delays, ab, wp.vec2(*TARGET), C0, F0], outputs=[re, im])
        wp.launch(neg_intensity, dim=1, inputs=[re, im], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), prm.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"intensity at tumour {-L:.3f}; d(-I)/d(x_f, z_f) = {g}")
