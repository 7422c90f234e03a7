# correct: look-alike of b09 (Schaefer model fitted with SGD and a fresh tape per iteration), with the tape gradients zeroed after every step.
"""Schaefer surplus-production model of a demersal stock, fitted with SGD.

Biomass (in units of 1000 t) follows B[t+1] = B[t] + r B[t] (1 - B[t] / K) - C[t]
with the recorded catches; the survey CPUE index is q B[t] with q = 1.
Growth rate r and carrying capacity K are fitted with warp.optim.SGD, one
fresh tape per iteration.
"""
import numpy as np
import warp as wp
from warp.optim import SGD

wp.config.quiet = True

CATCH = np.array([0.10, 0.12, 0.15, 0.18, 0.20, 0.18, 0.15, 0.12, 0.10, 0.10])
CPUE = np.array([0.90, 0.86, 0.80, 0.72, 0.62, 0.53, 0.48, 0.46, 0.47, 0.50, 0.53])
N_ITER = 6
LR = 0.02


@wp.kernel
def schaefer_year(par: wp.array(dtype=float), b_old: wp.array(dtype=float), landed: float, b_new: wp.array(dtype=float)):
    b = b_old[0]
    b_new[0] = b + par[0] * b * (1.0 - b / par[1]) - landed


@wp.kernel
def index_misfit(b: wp.array(dtype=float), obs: float, loss: wp.array(dtype=float)):
    d = b[0] - obs
    wp.atomic_add(loss, 0, d * d)


def record_objective(par):
    b = wp.array([0.9], dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(index_misfit, dim=1, inputs=[b, float(CPUE[0])], outputs=[loss])
    for t in range(len(CATCH)):
        b_next = wp.zeros(1, dtype=float, requires_grad=True)
        wp.launch(schaefer_year, dim=1, inputs=[par, b, float(CATCH[t])], outputs=[b_next])
        wp.launch(index_misfit, dim=1, inputs=[b_next, float(CPUE[t + 1])], outputs=[loss])
        b = b_next
    return loss


def objective64(p):
    b, total = 0.9, (0.9 - CPUE[0]) ** 2
    for t in range(len(CATCH)):
        b = b + p[0] * b * (1 - b / p[1]) - CATCH[t]
        total += (b - CPUE[t + 1]) ** 2
    return total


def fit(n_iter=N_ITER):
    par = wp.array([0.45, 1.3], dtype=float, requires_grad=True)
    opt = SGD([par], lr=LR)
    history = []
    for it in range(n_iter):
        tape = wp.Tape()
        with tape:
            loss = record_objective(par)
        tape.backward(loss)
        history.append((par.numpy().astype(np.float64), par.grad.numpy().astype(np.float64), float(loss.numpy()[0])))
        opt.step([par.grad])
        tape.zero()
    return history


def verify():
    p, g, _ = fit()[-1]
    fd = np.array([(objective64(p + e) - objective64(p - e)) / 2e-6 for e in np.eye(2) * 1e-6])
    return g, fd


if __name__ == "__main__":
    for it, (p, g, l) in enumerate(fit()):
        print(f"iter {it}: r = {p[0]:.4f}  K = {p[1]:.4f}  misfit {l:.5f}  |grad| {np.linalg.norm(g):.4f}")
