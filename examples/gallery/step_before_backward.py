"""The optimizer steps before backward(): every update uses the previous iteration's gradient.

In the first iteration the gradient is all zeros; afterwards it lags one
iteration behind (and `tape.zero()` at the end of the loop means it is
always zero here). The step is in a helper method of the trainer.
"""

import numpy as np
import warp as wp

N = 4


@wp.kernel
def predict(w: wp.array(dtype=float), x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = w[0] * x[i] * x[i]


@wp.kernel
def mse(y: wp.array(dtype=float), t: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = y[i] - t[i]
    wp.atomic_add(loss, 0, d * d)


@wp.kernel
def sgd(p: wp.array(dtype=float), g: wp.array(dtype=float), lr: float):
    i = wp.tid()
    p[i] = p[i] - lr * g[i]


class Trainer:
    def __init__(self):
        self.w = wp.array([0.5], dtype=float, requires_grad=True)

    def step(self, lr):
        wp.launch(sgd, dim=1, inputs=[self.w, self.w.grad, lr])


trainer = Trainer()
x = wp.array(np.linspace(1, 2, N, dtype=np.float32))
t = wp.array(np.linspace(2, 4, N, dtype=np.float32))
y = wp.zeros(N, dtype=float, requires_grad=True)
for it in range(3):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(predict, dim=N, inputs=[trainer.w, x], outputs=[y])
        wp.launch(mse, dim=N, inputs=[y, t], outputs=[loss])
    trainer.step(0.01)  # expect: TW205  note: TW106 (predict is linear in w)
    tape.backward(loss)
    tape.zero()
print("w", trainer.w.numpy())
