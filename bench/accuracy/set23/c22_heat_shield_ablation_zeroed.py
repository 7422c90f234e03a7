# correct: b22 near-miss: tape.zero() after every SGD step.
"""Capsule re-entry heat shield: ablator recession under a heat-flux pulse, char/virgin parameters fitted with warp.optim.SGD."""
import numpy as np
import warp as wp
from warp.optim import SGD

wp.config.quiet = True

N_PLUG = 10
N_T = 12
rng = np.random.default_rng(32)
PEAK_Q = rng.uniform(0.8, 1.6, N_PLUG).astype(np.float32)   # MW/m^2
TIME = np.linspace(10.0, 220.0, N_T).astype(np.float32)
_q = PEAK_Q[:, None] * np.exp(-((TIME[None, :] - 100.0) / 50.0) ** 2)
OBS = np.cumsum(0.9 * _q ** 1.2, axis=1).astype(np.float32) * 0.1  # recession mm
PARAMS0 = [0.7, 1.0]  # recession per MJ, flux exponent


@wp.kernel
def recession(p: wp.array(dtype=float), peak: wp.array(dtype=float), t: wp.array(dtype=float),
              rate: wp.array2d(dtype=float)):
    i, k = wp.tid()
    z = (t[k] - 100.0) / 50.0
    q = peak[i] * wp.exp(-z * z)
    rate[i, k] = 0.1 * p[0] * wp.pow(q, p[1])


@wp.kernel
def misfit(rate: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    s = float(0.0)
    for k in range(N_T):
        s = s + rate[i, k]
        e = s - obs[i, k]
        wp.atomic_add(loss, 0, e * e)


def objective(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float)
    rate = wp.zeros((N_PLUG, N_T), dtype=float)
    loss = wp.zeros(1, dtype=float)
    wp.launch(recession, dim=(N_PLUG, N_T), inputs=[params, wp.array(PEAK_Q, dtype=float), wp.array(TIME, dtype=float)],
              outputs=[rate])
    wp.launch(misfit, dim=N_PLUG, inputs=[rate, wp.array(OBS, dtype=float)], outputs=[loss])
    return float(loss.numpy()[0])


def fit(n_iter, record):
    params = wp.array(np.asarray(PARAMS0, dtype=np.float32), dtype=float, requires_grad=True)
    peak, t, obs = wp.array(PEAK_Q, dtype=float), wp.array(TIME, dtype=float), wp.array(OBS, dtype=float)
    rate = wp.zeros((N_PLUG, N_T), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    opt = SGD([params], lr=1e-3)
    for it in range(n_iter):
        loss.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(recession, dim=(N_PLUG, N_T), inputs=[params, peak, t], outputs=[rate])
            wp.launch(misfit, dim=N_PLUG, inputs=[rate, obs], outputs=[loss])
        tape.backward(loss)
        record.append((params.numpy().astype(np.float64).copy(), params.grad.numpy().astype(np.float64).copy()))
        opt.step([params.grad])
        tape.zero()
    return float(loss.numpy()[0])


def verify():
    rec = []
    fit(3, rec)
    p, used = rec[-1]
    fd = np.zeros(2)
    for k in range(2):
        dp = np.zeros(2)
        dp[k] = 1e-3
        fd[k] = (objective(p + dp) - objective(p - dp)) / 2e-3
    return used, fd


if __name__ == "__main__":
    print("ablation loss", fit(20, []))
