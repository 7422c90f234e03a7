"""Fitting a cooling constant with a loop that makes a new ``wp.Tape()`` every iteration, as if a new tape
started from zero gradients: it does not, the parameter's gradient keeps the previous iterations' sum and
the step grows each time.  Create the tape once and ``tape.reset()`` it, or ``tape.zero()`` after the step."""

import numpy as np
import warp as wp

wp.config.quiet = True

N = 32
TIMES = wp.array(np.linspace(0.0, 4.0, N).astype(np.float32), dtype=float)
OBSERVED = wp.array((20.0 + 60.0 * np.exp(-0.7 * np.linspace(0.0, 4.0, N))).astype(np.float32), dtype=float)


@wp.kernel
def misfit(k: wp.array(dtype=float), t: wp.array(dtype=float), obs: wp.array(dtype=float),
           loss: wp.array(dtype=float)):
    i = wp.tid()
    d = 20.0 + 60.0 * wp.exp(-k[0] * t[i]) - obs[i]
    wp.atomic_add(loss, 0, d * d / float(N))


@wp.kernel
def descend(k: wp.array(dtype=float), g: wp.array(dtype=float), lr: float):
    k[0] = k[0] - lr * g[0]


def fit(iterations: int):
    k = wp.array([0.4], dtype=float, requires_grad=True)
    for _ in range(iterations):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()  # expect: TW202
        with tape:
            wp.launch(misfit, dim=N, inputs=[k, TIMES, OBSERVED], outputs=[loss])
        tape.backward(loss)
        wp.launch(descend, dim=1, inputs=[k, k.grad, 1e-4])
    return k


print("k", fit(4).numpy()[0])
