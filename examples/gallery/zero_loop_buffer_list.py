"""Reservoir rock-physics fit: a Calibrator keeps the arrays it clears between steps in a list, and the loop
over that list zeroes the gradients of the work buffers but not of the parameters, which the list leaves
out.  The loop's list is the line to change."""

import numpy as np
import warp as wp
import warp.optim

wp.config.quiet = True

POROSITY = np.array([0.08, 0.12, 0.18, 0.22, 0.27], dtype=np.float32)
VELOCITY = np.array([4.9, 4.5, 4.0, 3.6, 3.3], dtype=np.float32)


@wp.kernel
def wyllie(phi: wp.array(dtype=float), prm: wp.array(dtype=float), v: wp.array(dtype=float)):
    i = wp.tid()
    v[i] = 1.0 / (phi[i] / prm[0] + (1.0 - phi[i]) / prm[1])


@wp.kernel
def misfit(v: wp.array(dtype=float), obs: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = v[i] - obs[i]
    wp.atomic_add(loss, 0, d * d)


class Calibrator:
    def __init__(self):
        self.prm = wp.array([1.6, 5.8], dtype=float, requires_grad=True)
        self.phi = wp.array(POROSITY, dtype=float)
        self.obs = wp.array(VELOCITY, dtype=float)
        self.v = wp.zeros(5, dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.work = [self.v, self.loss]

    def step(self, opt):
        self.loss.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(wyllie, dim=5, inputs=[self.phi, self.prm], outputs=[self.v])
            wp.launch(misfit, dim=5, inputs=[self.v, self.obs], outputs=[self.loss])
        tape.backward(self.loss)
        opt.step([self.prm.grad])
        for arr in self.work:  # expect: TW202
            arr.grad.zero_()
        return float(self.loss.numpy()[0])


cal = Calibrator()
opt = warp.optim.Adam([cal.prm], lr=0.02)
for _ in range(4):
    print(cal.step(opt))
