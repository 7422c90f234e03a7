# correct: the gradient is read through grad.numpy() and tape.zero() follows immediately, but the read takes a .copy(), so zeroing the buffer does not affect the consumed gradient
"""Suspension-bridge hanger pretension design against a sag limit."""
import numpy as np
import warp as wp

from _cables import NCABLE, deck_load, total_cost


def design(iters=40, lr=1.0):
    load = deck_load()
    pretension = wp.array(np.linspace(3.0, 7.0, NCABLE).astype(np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = total_cost(pretension, load, span=5.0, limit=0.4)
        tape.backward(loss)
        g = pretension.grad.numpy().copy()
        tape.zero()
        history.append((pretension.numpy().copy(), g.copy()))
        pretension.assign(pretension.numpy() - lr * g)
    print("pretension", pretension.numpy())
    return history


if __name__ == "__main__":
    design()
