"""Robust least-squares fit of a quadratic to data with gross outliers.

The per-point penalty mixes a pseudo-Huber term (robust, with a hand-written
adjoint in _robust_loss.py) with a small quadratic term that keeps the
problem strongly convex.
"""
import numpy as np
import warp as wp

from _robust_loss import pseudo_huber

wp.config.quiet = True

N = 60
DELTA = 0.2
MIX = 0.05


@wp.kernel
def robust_residuals(x: wp.array(dtype=float), y: wp.array(dtype=float), coef: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    c = coef[0]
    pred = c[0] * x[i] * x[i] + c[1] * x[i] + c[2]
    r = pred - y[i]
    rho = pseudo_huber(r, DELTA)
    quad = MIX * r * r
    wp.atomic_add(loss, 0, (rho + quad) / float(N))


def data(seed=4):
    rng = np.random.default_rng(seed)
    x = np.linspace(-1.5, 1.5, N)
    y = 0.8 * x * x - 0.5 * x + 0.3 + rng.normal(0, 0.05, N)
    out = rng.choice(N, 8, replace=False)
    y[out] += rng.choice([-1, 1], 8) * rng.uniform(1.0, 2.5, 8)
    return wp.array(x.astype(np.float32), dtype=float), wp.array(y.astype(np.float32), dtype=float)


X, Y = data()
PARAMS0 = np.array([0.2, 0.1, -0.2])


def evaluate(p):
    coef = wp.array([wp.vec3(*np.asarray(p, np.float32))], dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(robust_residuals, dim=N, inputs=[X, Y, coef], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), coef.grad.numpy().ravel().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(300):
        loss, g = evaluate(p)
        p -= 1.0 * g
        if it % 100 == 0:
            print(f"iter {it:3d} loss {loss:.5f} coef {np.round(p, 3)}")
    print("fitted", np.round(p, 3), "(truth 0.8, -0.5, 0.3)")
