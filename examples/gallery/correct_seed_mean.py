"""Correct: the per-element loss is seeded with 1/N, matching the mean the program reports,
and the checkpointed segments carry every adjoint."""

import numpy as np
import warp as wp

N = 16


@wp.kernel
def residual(x: wp.array(dtype=float), target: wp.array(dtype=float), r: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target[i]
    r[i] = d * d


x = wp.array(np.linspace(0.0, 1.0, N, dtype=np.float32), requires_grad=True)
target = wp.full(N, 0.5, dtype=float)
r = wp.zeros(N, dtype=float, requires_grad=True)
for it in range(3):
    tape = wp.Tape()
    with tape:
        wp.launch(residual, dim=N, inputs=[x, target], outputs=[r])
    loss = float(r.numpy().mean())
    tape.backward(grads={r: wp.full(N, 1.0 / N, dtype=float)})
    x.assign(x.numpy() - 0.5 * x.grad.numpy())
    tape.zero()
    print(it, "mean loss", loss)
