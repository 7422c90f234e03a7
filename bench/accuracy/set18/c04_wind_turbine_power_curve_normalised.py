# correct: weighted power-curve fit whose seed uses the availability weights normalised by their sum, the derivative of the weighted mean.
"""Logistic power curve of a 3 MW turbine from SCADA 10-minute records.

P(v) = P_r / (1 + exp(-k (v - v50))). Records are weighted by their
availability fraction (curtailed or iced periods count less); the weighted
mean squared error is formed on the host and its gradient is passed to
tape.backward as the power array's seed.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

RNG = np.random.default_rng(11)
V = np.linspace(3.0, 16.0, 40).astype(np.float32)
P_OBS = (3.0 / (1.0 + np.exp(-0.85 * (V - 9.2))) + 0.05 * RNG.standard_normal(40)).astype(np.float32)
AVAIL = np.clip(RNG.uniform(0.1, 1.0, 40), 0.0, 1.0)


@wp.kernel
def power_curve(v: wp.array(dtype=float), p: wp.array(dtype=float), power: wp.array(dtype=float)):
    i = wp.tid()
    power[i] = p[0] / (1.0 + wp.exp(-p[2] * (v[i] - p[1])))


PARAMS0 = [2.8, 9.6, 0.7]
v_d = wp.array(V, dtype=float)


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    power = wp.zeros(len(V), dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(power_curve, dim=len(V), inputs=[v_d, params], outputs=[power])
    r = power.numpy().astype(np.float64) - P_OBS
    loss = np.sum(AVAIL * r * r) / np.sum(AVAIL)
    w = AVAIL / AVAIL.sum()
    tape.backward(grads={power: wp.array((2.0 * w * r).astype(np.float32), dtype=float)})
    return loss, params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(200):
        l, g = evaluate(p)
        p -= np.array([0.5, 0.5, 0.2]) * g
    print(f"weighted mse {l:.5f}  Pr={p[0]:.3f} MW  v50={p[1]:.2f} m/s  k={p[2]:.3f}")
