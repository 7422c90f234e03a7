# correct: b19 near-miss: gradients are zeroed only at the top of each iteration, Adam steps on the fresh gradient.
"""Violin string set: fundamental frequencies from tension, linear density and bending stiffness, tension fitted with warp.optim.Adam."""
import numpy as np
import warp as wp
from warp.optim import Adam

wp.config.quiet = True

N_STR = 4
N_HARM = 8
LENGTH = wp.constant(0.328)
DENSITY = np.array([0.3e-3, 0.65e-3, 1.3e-3, 2.6e-3], dtype=np.float32)   # kg/m
TARGET = np.array([659.3, 440.0, 293.7, 196.0], dtype=np.float32)          # Hz
PARAMS0 = [50.0, 50.0, 45.0, 40.0]  # tensions N


@wp.kernel
def partials(tension: wp.array(dtype=float), mu: wp.array(dtype=float), target: wp.array(dtype=float),
             loss: wp.array(dtype=float)):
    s, h = wp.tid()
    n = float(h + 1)
    f1 = wp.sqrt(tension[s] / mu[s]) / (2.0 * LENGTH)
    fn = n * f1 * (1.0 + 1.0e-4 * n * n)
    e = (fn / (n * target[s]) - 1.0) * 10.0
    wp.atomic_add(loss, 0, e * e / float(N_HARM))


def objective(p):
    t = wp.array(np.asarray(p, dtype=np.float32), dtype=float)
    loss = wp.zeros(1, dtype=float)
    wp.launch(partials, dim=(N_STR, N_HARM), inputs=[t, wp.array(DENSITY, dtype=float), wp.array(TARGET, dtype=float)],
              outputs=[loss])
    return float(loss.numpy()[0])


def fit(n_iter, record):
    tension = wp.array(np.asarray(PARAMS0, dtype=np.float32), dtype=float, requires_grad=True)
    mu, target = wp.array(DENSITY, dtype=float), wp.array(TARGET, dtype=float)
    opt = Adam([tension], lr=0.5)
    for it in range(n_iter):
        tension.grad.zero_()
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(partials, dim=(N_STR, N_HARM), inputs=[tension, mu, target], outputs=[loss])
        tape.backward(loss)
        record.append((tension.numpy().astype(np.float64).copy(), tension.grad.numpy().astype(np.float64).copy()))
        opt.step([tension.grad])
    return float(loss.numpy()[0])


def verify():
    rec = []
    fit(3, rec)
    p, used = rec[-1]
    fd = np.zeros(N_STR)
    for k in range(N_STR):
        dp = np.zeros(N_STR)
        dp[k] = 1e-2
        fd[k] = (objective(p + dp) - objective(p - dp)) / 2e-2
    return used, fd


if __name__ == "__main__":
    print("violin tuning loss", fit(30, []))
