"""Choose a footbridge's cable pretensions: the update uses a NumPy view of the gradient taken before tape.zero().

On the CPU `x.grad.numpy()` is a view of the gradient's memory: the zero()
right after it clears what `g` shows, and the update steps by zeros.
"""

import numpy as np
import warp as wp

N = 6


@wp.kernel
def sag(tension: wp.array(dtype=float), load: wp.array(dtype=float), cost: wp.array(dtype=float)):
    i = wp.tid()
    s = load[i] / (1.0 + tension[i] * tension[i])
    wp.atomic_add(cost, 0, (s - 0.1) * (s - 0.1) + 0.001 * tension[i])


def design(iters=4, lr=1.0):
    load = wp.array(np.linspace(1.0, 2.0, N).astype(np.float32), dtype=float)
    tension = wp.array(np.full(N, 2.0, dtype=np.float32), dtype=float, requires_grad=True)
    for it in range(iters):
        cost = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(sag, dim=N, inputs=[tension, load], outputs=[cost])
        tape.backward(cost)
        g = tension.grad.numpy()  # expect@cpu: TW205 (on a GPU .numpy() is a copy, which zero() cannot clear)
        tape.zero()
        tension.assign(tension.numpy() - lr * g)


if __name__ == "__main__":
    design()
