"""Correct gradients, too large a learning rate: the stiffness explodes and the rollout diverges.

Nothing is wrong with the gradient: the forward pass goes to inf first, and
the NaN gradients follow from it. Reported as a diverged forward pass
(information), never as a gradient bug.
"""

import numpy as np
import warp as wp

N, STEPS = 4, 8


@wp.kernel
def step(x: wp.array(dtype=float), v: wp.array(dtype=float), k: wp.array(dtype=float),
         x_out: wp.array(dtype=float), v_out: wp.array(dtype=float)):
    i = wp.tid()
    v_out[i] = v[i] - k[0] * x[i] * 0.1
    x_out[i] = x[i] + v_out[i] * 0.1


@wp.kernel
def loss_kernel(x: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target
    wp.atomic_add(loss, 0, d * d)


k = wp.array([1.0], dtype=float, requires_grad=True)
for it in range(12):
    xs = [wp.array(np.linspace(0.5, 1.0, N, dtype=np.float32), requires_grad=True)]
    vs = [wp.zeros(N, dtype=float, requires_grad=True)]
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for s in range(STEPS):
            xs.append(wp.zeros(N, dtype=float, requires_grad=True))
            vs.append(wp.zeros(N, dtype=float, requires_grad=True))
            wp.launch(step, dim=N, inputs=[xs[s], vs[s], k], outputs=[xs[s + 1], vs[s + 1]])  # note: TW407
        wp.launch(loss_kernel, dim=N, inputs=[xs[STEPS], 3.0], outputs=[loss])
    tape.backward(loss)
    k.assign(k.numpy() - 50.0 * k.grad.numpy())  # far too large a step
    tape.zero()
    print(it, "loss", loss.numpy()[0], "k", k.numpy()[0])
