# correct: the tridiagonal solve runs off the tape (record_tape=False) with its adjoint registered by tape.record_func, and that adjoint is right: it solves the transposed system and pairs lambda with dA/dlog_lam applied to the solution.
"""Learn the strength of a screened-Poisson smoothing layer
u = (I + lam L)^(-1) f that denoises a 1-D signal (lam in log space, plus an
output gain). The solve is a custom differentiable layer: Thomas algorithm
forward, hand-registered adjoint."""
from typing import Any

import numpy as np
import warp as wp

wp.config.quiet = True

N = 64
rng = np.random.default_rng(59)
_x = np.linspace(0.0, 1.0, N)
CLEAN = (np.sin(2.0 * np.pi * _x) + 0.5 * (_x > 0.6)).astype(np.float32)
NOISY = (CLEAN + 0.25 * rng.normal(size=N)).astype(np.float32)
PARAMS0 = [np.log(0.5), 0.9]


@wp.kernel
def tridiag_solve(b: wp.array(dtype=float), log_lam: wp.array(dtype=float), cp: wp.array(dtype=float),
                  x: wp.array(dtype=float)):
    n = b.shape[0]
    lam = wp.exp(log_lam[0])
    diag = 1.0 + 2.0 * lam
    off = -lam
    cp[0] = off / diag
    x[0] = b[0] / diag
    for i in range(1, n):
        m = diag - off * cp[i - 1]
        cp[i] = off / m
        x[i] = (b[i] - off * x[i - 1]) / m
    for k in range(n - 1):
        i = n - 2 - k
        x[i] = x[i] - cp[i] * x[i + 1]


@wp.kernel
def axpy(alpha: float, x: wp.array(dtype=Any), y: wp.array(dtype=Any)):
    i = wp.tid()
    y[i] = y[i] + type(y[i])(alpha) * x[i]


@wp.kernel
def pair_with_laplacian(lam_adj: wp.array(dtype=float), u: wp.array(dtype=float), log_lam: wp.array(dtype=float),
                        out: wp.array(dtype=float)):
    # d/dlog_lam of A = lam L;  out -= lam_adj . (lam L u)
    i = wp.tid()
    n = u.shape[0]
    lu = 2.0 * u[i]
    if i > 0:
        lu -= u[i - 1]
    if i < n - 1:
        lu -= u[i + 1]
    wp.atomic_add(out, 0, -wp.exp(log_lam[0]) * lam_adj[i] * lu)


@wp.kernel
def gain_and_loss(u: wp.array(dtype=float), gain: wp.array(dtype=float), clean: wp.array(dtype=float),
                  loss: wp.array(dtype=float)):
    i = wp.tid()
    d = gain[0] * u[i] - clean[i]
    wp.atomic_add(loss, 0, d * d / float(u.shape[0]))


class SmoothingLayer:
    def __init__(self, log_lam):
        self.log_lam = log_lam

    def __call__(self, tape, f):
        u = wp.zeros(N, dtype=float, requires_grad=True)
        wp.launch(tridiag_solve, dim=1, inputs=[f, self.log_lam, wp.zeros(N, dtype=float)], outputs=[u],
                  record_tape=False)
        tape.record_func(backward=lambda: self.backward(f, u), arrays=[u, self.log_lam])
        return u

    def backward(self, f, u):
        lam_adj = wp.zeros(N, dtype=float)
        wp.launch(tridiag_solve, dim=1, inputs=[u.grad, self.log_lam, wp.zeros(N, dtype=float)], outputs=[lam_adj])
        if f.grad is not None:
            wp.launch(axpy, dim=N, inputs=[1.0, lam_adj], outputs=[f.grad])
        wp.launch(pair_with_laplacian, dim=N, inputs=[lam_adj, u, self.log_lam], outputs=[self.log_lam.grad])


def evaluate(p):
    p = np.asarray(p, dtype=np.float32)
    log_lam = wp.array(p[:1], dtype=float, requires_grad=True)
    gain = wp.array(p[1:], dtype=float, requires_grad=True)
    f = wp.array(NOISY, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    layer = SmoothingLayer(log_lam)
    tape = wp.Tape()
    with tape:
        u = layer(tape, f)
        wp.launch(gain_and_loss, dim=N, inputs=[u, gain, wp.array(CLEAN, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([log_lam.grad.numpy(), gain.grad.numpy()])


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = evaluate(p)
        p -= 0.5 * g
        if it % 10 == 0:
            print(f"iter {it} denoising mse {l:.4f} lambda {np.exp(p[0]):.3f} gain {p[1]:.3f}")
