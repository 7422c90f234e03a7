"""Calibrate a heat-exchanger network's two conductances; the network temperatures come from
taped Jacobi sweeps, each a `gather` (neighbour sum) then an `update` kernel.

`N_SWEEPS = 300` sweeps of a contraction of about 0.85: the iterates stop
moving long before the last sweep, so the taped iteration is differentiated
at its converged equilibrium, the one the program reports.
"""

import numpy as np
import warp as wp

N = 6
N_SWEEPS = 300
_rng = np.random.default_rng(3)
_A = 0.5 + _rng.random((N, N))
np.fill_diagonal(_A, 0.0)
COUPLING = (_A / _A.sum(axis=1, keepdims=True)).astype(np.float32)
SOURCE = np.linspace(1.0, 2.0, N).astype(np.float32)
TARGET = np.linspace(8.0, 11.0, N).astype(np.float32)


@wp.kernel
def gather(a: wp.array2d(dtype=float), t: wp.array(dtype=float), s: wp.array(dtype=float)):
    i, j = wp.tid()
    wp.atomic_add(s, i, a[i, j] * t[j])


@wp.kernel
def update(k: wp.array(dtype=float), source: wp.array(dtype=float), s: wp.array(dtype=float),
           t_new: wp.array(dtype=float)):
    i = wp.tid()
    t_new[i] = k[0] * source[i] + (0.9 - 0.1 * k[1]) * s[i]


@wp.kernel
def misfit(t: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = t[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


def equilibrium(k):
    return np.linalg.solve(np.eye(N) - (0.9 - 0.1 * k[1]) * COUPLING, k[0] * SOURCE)


def temperatures_and_gradient(k):
    a = wp.array(COUPLING, dtype=float)
    source = wp.array(SOURCE, dtype=float)
    t = wp.zeros(N, dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(N_SWEEPS):
            s = wp.zeros(N, dtype=float, requires_grad=True)
            wp.launch(gather, dim=(N, N), inputs=[a, t], outputs=[s])
            t_new = wp.zeros(N, dtype=float, requires_grad=True)
            wp.launch(update, dim=N, inputs=[k, source, s], outputs=[t_new])
            t = t_new
        wp.launch(misfit, dim=N, inputs=[t, wp.array(TARGET, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return equilibrium(k.numpy().astype(np.float64)), k.grad.numpy().copy()


if __name__ == "__main__":
    k = wp.array([1.0, 0.5], dtype=float, requires_grad=True)
    temps, grad = temperatures_and_gradient(k)
    print("equilibrium", np.round(temps, 3), "gradient", grad)
