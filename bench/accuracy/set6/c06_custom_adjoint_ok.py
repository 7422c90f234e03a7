# correct: Correct look-alike of b11: robust line fit whose custom adjoint (helper module) is right.
"""Correct look-alike of b11: robust line fit whose custom adjoint (helper module) is right."""
import numpy as np
import warp as wp

from _c06_robust import smooth_abs

N = 50


@wp.kernel
def residuals(xs: wp.array(dtype=float), ys: wp.array(dtype=float), ab: wp.array(dtype=float),
              res: wp.array(dtype=float)):
    i = wp.tid()
    res[i] = ab[0] * xs[i] + ab[1] - ys[i]


@wp.kernel
def robust_loss(res: wp.array(dtype=float), eps: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, smooth_abs(res[i], eps))


def fit(xs, ys, iters=5, lr=0.002):
    ab = wp.array([0.0, 0.0], dtype=float, requires_grad=True)
    res = wp.zeros(N, dtype=float, requires_grad=True)
    for it in range(iters):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(residuals, dim=N, inputs=[xs, ys, ab], outputs=[res])
            wp.launch(robust_loss, dim=N, inputs=[res, 0.5], outputs=[loss])
        tape.backward(loss)
        g = ab.grad.numpy()
        print(f"it {it}: loss {loss.numpy()[0]:.4f} grad {g}")
        ab.assign(ab.numpy() - lr * g)
        tape.zero()
    return ab


def main():
    rng = np.random.default_rng(3)
    x = np.linspace(-2, 2, N).astype(np.float32)
    y = (1.5 * x - 0.3 + 0.05 * rng.standard_normal(N)).astype(np.float32)
    y[::10] += 4.0  # outliers
    fit(wp.array(x), wp.array(y))


if __name__ == "__main__":
    main()
