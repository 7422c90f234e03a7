"""Fit a thermistor's beta constant to resistance readings with a relative misfit computed on the host.

The loss is the mean squared *relative* residual, `mean(((R - R_obs) / R_obs)**2)`,
but the seed, computed in a statement of its own before the backward call,
is the derivative of the plain squared residual: it lacks the `1 / R_obs**2`.
The statement that computes the seed is the line to change.
"""

import numpy as np
import warp as wp

N = 9
T = np.linspace(280.0, 360.0, N).astype(np.float32)
R_OBS = (10.0e3 * np.exp(3950.0 * (1.0 / T - 1.0 / 298.15))).astype(np.float64)


@wp.kernel
def resistance(t: wp.array(dtype=float), beta: wp.array(dtype=float), r: wp.array(dtype=float)):
    i = wp.tid()
    r[i] = 10.0e3 * wp.exp(beta[0] * (1.0 / t[i] - 1.0 / 298.15))


def fit_step(beta, t):
    r = wp.zeros(N, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(resistance, dim=N, inputs=[t, beta], outputs=[r])
    r_host = r.numpy().astype(np.float64)
    loss = np.mean(((r_host - R_OBS) / R_OBS) ** 2)
    seed = 2.0 * (r_host - R_OBS) / N  # expect: TW204
    tape.backward(grads={r: wp.array(seed.astype(np.float32), dtype=float)})
    beta.assign(beta.numpy() - 10.0 * np.sign(beta.grad.numpy()))  # a fixed step along the gradient
    tape.zero()
    return loss


if __name__ == "__main__":
    beta = wp.array([3800.0], dtype=float, requires_grad=True)
    t = wp.array(T, dtype=float)
    for _ in range(3):
        print("relative misfit", fit_step(beta, t))
