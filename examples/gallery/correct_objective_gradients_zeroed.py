"""Correct: the same gradient balancing, with the tape's gradients zeroed between the two backward passes."""

import numpy as np
import warp as wp

N = 32


@wp.kernel
def data_term(x: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = x[i] - obs[i]
    wp.atomic_add(loss, 0, r * r)


@wp.kernel
def prior_term(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    if i > 0:
        d = x[i] - x[i - 1]
        wp.atomic_add(loss, 0, wp.log(1.0 + d * d))


class Balancer:
    def __init__(self, obs):
        self.obs = wp.array(obs, dtype=float)
        self.x = wp.zeros(N, dtype=float, requires_grad=True)

    def gradients(self):
        data = wp.zeros(1, dtype=float, requires_grad=True)
        prior = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(data_term, dim=N, inputs=[self.x, self.obs], outputs=[data])
            wp.launch(prior_term, dim=N, inputs=[self.x], outputs=[prior])
        tape.backward(data)
        g_data = self.x.grad.numpy().copy()
        tape.zero()
        tape.backward(prior)
        g_prior = self.x.grad.numpy().copy()
        tape.zero()
        return g_data, g_prior

    def step(self, lr):
        g_data, g_prior = self.gradients()
        w = np.linalg.norm(g_data) / (np.linalg.norm(g_prior) + 1e-8)
        self.x.assign(self.x.numpy() - lr * (g_data + w * g_prior))
        return w


rng = np.random.default_rng(4)
b = Balancer(np.cumsum(rng.standard_normal(N)).astype(np.float32))
for it in range(3):
    print(it, "prior weight", b.step(0.1))
