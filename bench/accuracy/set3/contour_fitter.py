"""Fit a radial Fourier contour r(phi) = c0 + sum_k a_k cos(k phi) + b_k sin(k phi) to boundary samples with Adam."""
import math

import numpy as np
import warp as wp
from warp.optim import Adam

K = 3


@wp.kernel
def contour_points(phi: wp.array(dtype=float), coeffs: wp.array(dtype=float), pts: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    p = phi[i]
    r = coeffs[0]
    for k in range(1, 4):
        r += coeffs[2 * k - 1] * wp.cos(float(k) * p) + coeffs[2 * k] * wp.sin(float(k) * p)
    pts[i] = wp.vec2(r * wp.cos(p), r * wp.sin(p))


@wp.kernel
def soft_match(
    pts: wp.array(dtype=wp.vec2),
    samples: wp.array(dtype=wp.vec2),
    num: wp.array(dtype=float),
    den: wp.array(dtype=float),
):
    # each boundary sample is matched to its softly-nearest contour point
    j, i = wp.tid()
    d = pts[i] - samples[j]
    d2 = wp.dot(d, d)
    w = wp.exp(-20.0 * d2)
    wp.atomic_add(num, j, w * d2)
    wp.atomic_add(den, j, w)


@wp.kernel
def chamfer_reduce(num: wp.array(dtype=float), den: wp.array(dtype=float), loss: wp.array(dtype=float)):
    j = wp.tid()
    wp.atomic_add(loss, 0, num[j] / (den[j] + 1.0e-8) / float(num.shape[0]))


class ContourFitter:
    def __init__(self, samples_np, n_pts=48, lr=0.05):
        self.phi = wp.array(np.linspace(0.0, 2.0 * math.pi, n_pts, endpoint=False).astype(np.float32), dtype=float)
        self.samples = wp.array(samples_np, dtype=wp.vec2)
        init = np.zeros(2 * K + 1, dtype=np.float32)
        init[0] = 1.0
        self.coeffs = wp.array(init, dtype=float, requires_grad=True)
        self.pts = wp.zeros(n_pts, dtype=wp.vec2, requires_grad=True)
        self.num = wp.zeros(self.samples.shape[0], dtype=float, requires_grad=True)
        self.den = wp.zeros(self.samples.shape[0], dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.opt = Adam([self.coeffs], lr=lr)
        self.tape = None
        self.history = []

    def forward(self):
        wp.launch(contour_points, dim=self.pts.shape[0], inputs=[self.phi, self.coeffs], outputs=[self.pts])
        wp.launch(soft_match, dim=(self.samples.shape[0], self.pts.shape[0]), inputs=[self.pts, self.samples], outputs=[self.num, self.den])
        wp.launch(chamfer_reduce, dim=self.samples.shape[0], inputs=[self.num, self.den], outputs=[self.loss])

    def step(self):
        self.loss.zero_()
        self.num.zero_()
        self.den.zero_()
        self.tape = wp.Tape()
        self.tape.zero()  # expect: missing_zero
        with self.tape:
            self.forward()
        self.tape.backward(self.loss)
        self.history.append((self.coeffs.numpy().copy(), float(self.loss.numpy()[0]), self.coeffs.grad.numpy().copy()))
        self.opt.step([self.coeffs.grad])
        return self.history[-1][1]


rng = np.random.default_rng(9)
t = rng.uniform(0.0, 2.0 * math.pi, 40)
r_true = 1.2 + 0.3 * np.cos(2 * t) - 0.15 * np.sin(3 * t)
samples_np = np.stack([r_true * np.cos(t), r_true * np.sin(t)], axis=1).astype(np.float32)

fitter = ContourFitter(samples_np)
for it in range(4):
    l = fitter.step()
    print(f"step {it}: loss {l:.6f}")
