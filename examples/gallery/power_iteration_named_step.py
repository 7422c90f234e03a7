"""Tune a ranking's two personalisation weights; the ranks come from 10 taped power-iteration steps.

`power_step` applies `x <- (1 - d) v + d M x` with damping d = 0.9: a
contraction that shrinks the change by about 0.9 a step, so after 10 steps
the scores are far from the fixed point the program reports as "the"
ranks, and the gradient is that of the truncated iteration. (A kernel
named `*_step` is a solver's step here, not a time step.)
"""

import numpy as np
import warp as wp

N = 8
DAMP = 0.9
_rng = np.random.default_rng(11)
_links = (_rng.random((N, N)) < 0.4).astype(np.float64)
np.fill_diagonal(_links, 0.0)
_links[:, _links.sum(axis=0) == 0] = 1.0 / N
M = (_links / _links.sum(axis=0, keepdims=True)).astype(np.float32)
FEATURE = np.linspace(-1.0, 1.0, N).astype(np.float32)
TARGET = np.linspace(0.05, 0.2, N).astype(np.float32)
SWEEPS = 10  # note: TW208


@wp.kernel
def teleport(w: wp.array(dtype=float), feature: wp.array(dtype=float), v: wp.array(dtype=float)):
    i = wp.tid()
    v[i] = wp.exp(w[0] * feature[i] + w[1]) / float(N)


@wp.kernel
def power_step(m: wp.array2d(dtype=float), v: wp.array(dtype=float), x: wp.array(dtype=float),
               x_new: wp.array(dtype=float)):
    i = wp.tid()
    acc = float(0.0)
    for j in range(N):
        acc += m[i, j] * x[j]
    x_new[i] = (1.0 - DAMP) * v[i] + DAMP * acc


@wp.kernel
def misfit(x: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


def ranks_and_gradient(w, m, feature, target):
    v = wp.zeros(N, dtype=float, requires_grad=True)
    x = wp.full(N, 1.0 / N, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(teleport, dim=N, inputs=[w, feature], outputs=[v])
        for _ in range(SWEEPS):
            x_new = wp.zeros(N, dtype=float, requires_grad=True)
            wp.launch(power_step, dim=N, inputs=[m, v, x], outputs=[x_new])
            x = x_new
        wp.launch(misfit, dim=N, inputs=[x, target], outputs=[loss])
    tape.backward(loss)
    return x.numpy(), w.grad.numpy().copy()


if __name__ == "__main__":
    w = wp.array([0.3, 0.1], dtype=float, requires_grad=True)
    ranks, grad = ranks_and_gradient(w, wp.array(M, dtype=float), wp.array(FEATURE, dtype=float),
                                     wp.array(TARGET, dtype=float))
    print("ranks", np.round(ranks, 4), "gradient", grad)
