"""Minimal Adam optimizer over Warp arrays (host-side update)."""

import numpy as np
import warp as wp


class Adam:
    def __init__(self, params, lr=1e-2, betas=(0.9, 0.999), eps=1e-8):
        self.params = params
        self.lr = lr
        self.b1, self.b2 = betas
        self.eps = eps
        self.m = [np.zeros(p.shape, dtype=np.float64) for p in params]
        self.v = [np.zeros(p.shape, dtype=np.float64) for p in params]
        self.t = 0

    def step(self):
        self.t += 1
        for k, p in enumerate(self.params):
            g = p.grad.numpy().astype(np.float64)
            self.m[k] = self.b1 * self.m[k] + (1 - self.b1) * g
            self.v[k] = self.b2 * self.v[k] + (1 - self.b2) * g * g
            mh = self.m[k] / (1 - self.b1**self.t)
            vh = self.v[k] / (1 - self.b2**self.t)
            p.assign((p.numpy() - self.lr * mh / (np.sqrt(vh) + self.eps)).astype(np.float32))
