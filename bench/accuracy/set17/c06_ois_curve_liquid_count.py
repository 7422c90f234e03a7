# correct: the zero-rate seed is masked to the liquid tenors and divided by their count, as the host loss is
"""Nelson-Siegel OIS curve: calibrate level, slope and curvature to swap zero
rates, scoring only the liquid tenors (illiquid long-end quotes are stale)."""
import numpy as np
import warp as wp

wp.config.quiet = True
wp.set_device("cpu")

TENORS = np.array([0.25, 0.5, 1, 2, 3, 4, 5, 7, 10, 12, 15, 20, 25, 30, 40, 50], dtype=np.float32)
LIQUID = np.array([1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 0, 1, 0, 0], dtype=np.float64)
TAU = 2.5


@wp.kernel
def ns_zero(beta: wp.array(dtype=float), tenor: wp.array(dtype=float), z: wp.array(dtype=float)):
    i = wp.tid()
    x = tenor[i] / 2.5
    e = wp.exp(-x)
    f1 = (1.0 - e) / x
    z[i] = beta[0] + beta[1] * f1 + beta[2] * (f1 - e)


_t = TENORS.astype(np.float64) / TAU
_f1 = (1 - np.exp(-_t)) / _t
Z_QUOTE = 0.031 - 0.012 * _f1 + 0.018 * (_f1 - np.exp(-_t)) + 1e-4 * np.cos(np.arange(len(TENORS)))
Z_QUOTE[~LIQUID.astype(bool)] += 0.0015   # stale marks
TENOR_W = wp.array(TENORS, dtype=float)
N_LIQ = int(LIQUID.sum())

PARAMS0 = np.array([0.03, -0.01, 0.015])
FD_EPS = 1e-5


def evaluate(beta):
    b_w = wp.array(np.asarray(beta, dtype=np.float32), dtype=float, requires_grad=True)
    z = wp.zeros(len(TENORS), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(ns_zero, dim=len(TENORS), inputs=[b_w, TENOR_W], outputs=[z])
    err_bp = (z.numpy().astype(np.float64) - Z_QUOTE) * 1.0e4
    loss = float(np.sum(LIQUID * err_bp**2) / N_LIQ)
    z.grad.assign((2.0e4 * err_bp * LIQUID / N_LIQ).astype(np.float32))
    tape.backward()
    return loss, b_w.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    L, g = evaluate(PARAMS0)
    print(f"mean squared liquid-quote error {L:.3f} bp^2; grad [b0, b1, b2] = {g}")
