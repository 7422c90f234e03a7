"""Correct: `wp.utils.array_sum` inside the tape, but of fixed sample weights that carry no gradient.

The weighted least-squares fit normalises its sample weights by their sum
while the tape records; the weights are data (no `requires_grad`), so that
the reduction has no adjoint costs nothing.
"""

import numpy as np
import warp as wp

N = 16


@wp.kernel
def weighted_residual(x: wp.array(dtype=float), w: wp.array(dtype=float), w_sum: wp.array(dtype=float),
                      obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = x[0] * float(i) + x[1] - obs[i]
    wp.atomic_add(loss, 0, w[i] / w_sum[0] * r * r)


class WeightedFit:
    def __init__(self, obs, weights):
        self.obs = wp.array(obs, dtype=float)
        self.w = wp.array(weights, dtype=float)
        self.x = wp.zeros(2, dtype=float, requires_grad=True)

    def step(self, lr):
        w_sum = wp.zeros(1, dtype=float)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.utils.array_sum(self.w, out=w_sum)
            wp.launch(weighted_residual, dim=N, inputs=[self.x, self.w, w_sum, self.obs], outputs=[loss])
        tape.backward(loss)
        self.x.assign(self.x.numpy() - lr * self.x.grad.numpy())
        tape.zero()
        return float(loss.numpy()[0])


rng = np.random.default_rng(8)
fit = WeightedFit((0.3 * np.arange(N) + 1.0 + 0.1 * rng.standard_normal(N)).astype(np.float32),
                  rng.uniform(0.5, 2.0, N).astype(np.float32))
for it in range(3):
    print(it, "loss", fit.step(0.002))
