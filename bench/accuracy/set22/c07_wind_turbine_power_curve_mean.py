# correct: the seed is the derivative of the mean, 2 * resid / resid.size.
"""Wind turbine power curve: fit rated power and cut-in speed of a logistic power curve to SCADA ten-minute means."""
import numpy as np
import warp as wp

wp.config.quiet = True

N_REC = 96
rng = np.random.default_rng(4)
WIND = rng.uniform(2.0, 16.0, N_REC).astype(np.float32)
RHO = rng.uniform(1.15, 1.28, N_REC).astype(np.float32)


@wp.kernel
def power_curve(p: wp.array(dtype=float), wind: wp.array(dtype=float), rho: wp.array(dtype=float),
                power: wp.array(dtype=float)):
    i = wp.tid()
    rated = p[0]
    v_mid = p[1]
    dens = rho[i] / 1.225
    power[i] = rated / (1.0 + wp.exp(-(wind[i] * dens - v_mid) / 1.4))


def _truth():
    return 3.2 / (1 + np.exp(-(WIND * RHO / 1.225 - 8.5) / 1.4)) + 0.05 * np.sin(np.arange(N_REC))


OBS = _truth()


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    power = wp.zeros(N_REC, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(power_curve, dim=N_REC, inputs=[params, wp.array(WIND, dtype=float), wp.array(RHO, dtype=float)],
                  outputs=[power])
    resid = power.numpy().astype(np.float64) - OBS
    loss = float(np.mean(resid ** 2))  # mean squared error in MW^2
    dloss = 2.0 * resid / resid.size  # d(mean r^2)/d(power)
    seed = wp.array(dloss.astype(np.float32), dtype=float)
    tape.backward(grads={power: seed})
    return loss, params.grad.numpy().astype(np.float64)


PARAMS0 = [2.5, 7.0]
FD_EPS = 1e-3

if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(60):
        l, g = evaluate(p)
        p -= 0.5 * g
    print("power curve MSE %.5f params %s" % (l, p))
