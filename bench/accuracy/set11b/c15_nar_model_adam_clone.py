# correct: the optimiser steps after tape.zero() has cleared the gradients, but it steps with a wp.clone of the gradient taken right after backward().
"""Nonlinear autoregressive model x[t+1] = a x[t] + b x[t-1] + c tanh(x[t]) fitted
to a simulated series by minimising the one-step prediction error, with
warp.optim.Adam."""
import numpy as np
import warp as wp
import warp.optim

wp.config.quiet = True

T = 120
TRUE = (0.6, -0.3, 0.8)
rng = np.random.default_rng(6)
SERIES = np.zeros(T, dtype=np.float64)
SERIES[:2] = [0.5, -0.2]
for t in range(1, T - 1):
    SERIES[t + 1] = TRUE[0] * SERIES[t] + TRUE[1] * SERIES[t - 1] + TRUE[2] * np.tanh(SERIES[t]) + 0.3 * rng.normal()
SERIES = SERIES.astype(np.float32)
THETA0 = np.array([0.2, 0.0, 0.3], dtype=np.float32)
ITERS = 4


@wp.kernel
def one_step_error(x: wp.array(dtype=float), th: wp.array(dtype=float), loss: wp.array(dtype=float)):
    t = wp.tid() + 1
    pred = th[0] * x[t] + th[1] * x[t - 1] + th[2] * wp.tanh(x[t])
    e = x[t + 1] - pred
    wp.atomic_add(loss, 0, e * e / float(x.shape[0] - 2))


def objective(theta):
    loss = wp.zeros(1, dtype=float)
    wp.launch(one_step_error, dim=T - 2, inputs=[wp.array(SERIES, dtype=float),
                                                 wp.array(theta.astype(np.float32), dtype=float)], outputs=[loss])
    return float(loss.numpy()[0])


def train(iters, log=False):
    x = wp.array(SERIES, dtype=float)
    th = wp.array(THETA0, dtype=float, requires_grad=True)
    opt = warp.optim.Adam([th], lr=0.05)
    for it in range(iters):
        tape = wp.Tape()
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        with tape:
            wp.launch(one_step_error, dim=T - 2, inputs=[x, th], outputs=[loss])
        tape.backward(loss)
        g = wp.clone(th.grad)
        tape.zero()
        at = th.numpy().astype(np.float64)
        opt.step([g])
        if log and it % 20 == 0:
            print(f"iter {it} prediction mse {loss.numpy()[0]:.4f} theta {np.round(th.numpy(), 3)}")
    return at, g.numpy().astype(np.float64)


def verify():
    at, ad = train(ITERS)
    h = 1.0e-3
    fd = np.array([(objective(at + h * e) - objective(at - h * e)) / (2 * h) for e in np.eye(at.size)])
    return ad, fd


if __name__ == "__main__":
    train(100, log=True)
