"""Fit a pump curve's two coefficients to flow readings; the loss is a mean computed on the host.

The seed, built in one statement from the residuals, is the derivative of
that mean (`2 r / N`): correct.
"""

import numpy as np
import warp as wp

N = 12
Q = np.linspace(0.1, 1.2, N).astype(np.float32)
HEAD_OBS = (32.0 - 9.0 * Q.astype(np.float64) ** 2 + 0.2 * np.sin(7.0 * Q)).astype(np.float64)


@wp.kernel
def pump_head(q: wp.array(dtype=float), c: wp.array(dtype=float), head: wp.array(dtype=float)):
    i = wp.tid()
    head[i] = c[0] - c[1] * q[i] * q[i]


def step(c, q, lr=0.01):
    head = wp.zeros(N, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(pump_head, dim=N, inputs=[q, c], outputs=[head])
    resid = head.numpy().astype(np.float64) - HEAD_OBS
    loss = np.mean(resid ** 2)
    seed = wp.array((2.0 * resid / N).astype(np.float32), dtype=float)
    tape.backward(grads={head: seed})
    c.assign(c.numpy() - lr * c.grad.numpy())
    tape.zero()
    return loss


if __name__ == "__main__":
    c = wp.array([30.0, 8.0], dtype=float, requires_grad=True)
    q = wp.array(Q, dtype=float)
    for _ in range(3):
        print("mean squared head error", step(c, q))
