"""Choose a footbridge's cable pretensions with a NumPy view of the gradient, used before tape.zero().

Looks like deck_sag_grad_view.py: `g` is still a view of the gradient when
zero() clears it, but the update already used it, and nothing reads `g`
after the zero().
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
        g = tension.grad.numpy()
        tension.assign(tension.numpy() - lr * g)
        tape.zero()


if __name__ == "__main__":
    design()
