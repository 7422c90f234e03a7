"""Truncated gradients: a trainer that differentiates each window of a rollout on its own tape.

`Trainer.window()` starts from the state the previous window ended in,
records a tape, and calls backward() at once; the gradients of the
stiffness are summed over the windows. Each window's gradient stops where
its state came in: the sum is not the gradient of the whole rollout.
"""

import numpy as np
import warp as wp

N, STEPS = 6, 3


@wp.kernel
def step(x: wp.array(dtype=float), k: wp.array(dtype=float), x_out: wp.array(dtype=float)):
    i = wp.tid()
    x_out[i] = x[i] - 0.1 * k[0] * x[i] * x[i]


@wp.kernel
def loss_kernel(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, x[i] * x[i])


class Trainer:
    def __init__(self):
        self.k = wp.array([0.5], dtype=float, requires_grad=True)
        self.x = wp.array(np.linspace(0.2, 1.0, N, dtype=np.float32), requires_grad=True)

    def window(self):
        xs = [self.x] + [wp.zeros(N, dtype=float, requires_grad=True) for _ in range(STEPS)]
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()  # expect: TW207
        with tape:
            for s in range(STEPS):
                wp.launch(step, dim=N, inputs=[xs[s], self.k], outputs=[xs[s + 1]])
            wp.launch(loss_kernel, dim=N, inputs=[xs[-1]], outputs=[loss])
        tape.backward(loss)
        self.x = xs[-1]  # the next window starts where this one ended


trainer = Trainer()
for _ in range(3):
    trainer.window()
print("summed gradient", trainer.k.grad.numpy())
