"""Correct: backward(), then the optimizer step reads the fresh gradient, then tape.zero()."""

import numpy as np
import warp as wp
import warp.optim

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


w = wp.array([0.5], dtype=float, requires_grad=True)
x = wp.array(np.linspace(1, 2, N, dtype=np.float32))
t = wp.array(np.linspace(2, 4, N, dtype=np.float32))
y = wp.zeros(N, dtype=float, requires_grad=True)
opt = warp.optim.SGD([w], lr=0.01)
for it in range(3):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(predict, dim=N, inputs=[w, x], outputs=[y])
        wp.launch(mse, dim=N, inputs=[y, t], outputs=[loss])
    print("loss", loss.numpy()[0])
    tape.backward(loss)
    opt.step([w.grad])  # note: TW104 (Warp warns at sgd_step_kernel's codegen; it runs off the tape)
    tape.zero()
