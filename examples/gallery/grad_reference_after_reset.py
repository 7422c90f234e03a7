"""Fit a decay rate by host gradient descent; the gradient is kept by reference across reset().

`g = rate.grad` names the gradient array itself, not a copy: `tape.reset()`
zeroes it before the update reads it, so every step uses zeros and the rate
never moves.
"""
import numpy as np
import warp as wp

T = 16


@wp.kernel
def decay_misfit(rate: wp.array(dtype=float), observed: wp.array(dtype=float), loss: wp.array(dtype=float)):
    t = wp.tid()
    r = wp.exp(-rate[0] * float(t) * 0.1) - observed[t]
    wp.atomic_add(loss, 0, r * r)


def fit(steps=4, lr=0.5):
    observed = wp.array(np.exp(-0.7 * 0.1 * np.arange(T)).astype(np.float32))
    rate = wp.array([0.2], dtype=float, requires_grad=True)
    tape = wp.Tape()
    for _ in range(steps):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        with tape:
            wp.launch(decay_misfit, dim=T, inputs=[rate, observed], outputs=[loss])
        tape.backward(loss)
        g = rate.grad  # expect: TW205
        tape.reset()
        rate.assign(rate.numpy() - lr * g.numpy())
    return rate.numpy()[0]


print("fitted rate", fit())
