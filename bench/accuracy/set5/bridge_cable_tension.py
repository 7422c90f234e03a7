"""Choose cable pretensions of a footbridge so deck sag stays near the design limit."""
import numpy as np
import warp as wp

from _cables import NCABLE, deck_load, total_cost


def design(iters=40, lr=1.0):
    load = deck_load()
    pretension = wp.array(np.full(NCABLE, 5.0, dtype=np.float32), dtype=wp.float32, requires_grad=True)
    history = []
    for it in range(iters):
        tape = wp.Tape()
        with tape:
            loss = total_cost(pretension, load)
        tape.backward(loss)
        g = pretension.grad.numpy()  # expect: grad_read
        tape.zero()
        history.append((pretension.numpy().copy(), g.copy()))
        pretension.assign(pretension.numpy() - lr * g)
        if it % 10 == 0:
            print(f"iter {it} cost {loss.numpy()[0]:.4f}")
    return history


if __name__ == "__main__":
    design()
