"""Correct gradients, a learning rate that overshoots: the loss grows a little at every step.

Gradient descent on a quadratic with a step larger than 1/curvature jumps
past the minimum further each time. The gradient is right (the per-launch
checks pass); the update line is what to change.
"""

import warp as wp


@wp.kernel
def fit(k: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
    d = k[0] - target
    loss[0] = d * d


k = wp.array([2.0], dtype=float, requires_grad=True)
lr = 1.1  # the minimum is reached with lr = 0.5; above 1.0 each step overshoots further
for it in range(12):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(fit, dim=1, inputs=[k, 3.0], outputs=[loss])
    tape.backward(loss)
    k.assign(k.numpy() - lr * k.grad.numpy())  # note: TW408
    tape.zero()
    print(it, "loss", loss.numpy()[0])
