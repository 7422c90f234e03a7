"""Correct: projected gradient descent; the projection clamps the parameters in place, but outside the
tape, after backward() and the step, so no adjoint ever replays it."""

import numpy as np
import warp as wp

from _constraints import descend, project_box


@wp.kernel
def predict(a: wp.array2d(dtype=float), p: wp.array(dtype=float), pred: wp.array(dtype=float)):
    j, i = wp.tid()
    wp.atomic_add(pred, j, a[j, i] * p[i])


@wp.kernel
def squared_error(pred: wp.array(dtype=float), t: wp.array(dtype=float), loss: wp.array(dtype=float)):
    j = wp.tid()
    d = pred[j] - t[j]
    wp.atomic_add(loss, 0, d * d)


class BoxFit:
    def __init__(self, a, t, lo, hi):
        self.a = wp.array(a, dtype=float)
        self.t = wp.array(t, dtype=float)
        self.p = wp.zeros(a.shape[1], dtype=float, requires_grad=True)
        self.lo, self.hi = lo, hi

    def loss_and_grad(self):
        pred = wp.zeros(self.t.shape[0], dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(predict, dim=self.a.shape, inputs=[self.a, self.p], outputs=[pred])
            wp.launch(squared_error, dim=self.t.shape[0], inputs=[pred, self.t], outputs=[loss])
        tape.backward(loss)
        return loss, tape

    def step(self, lr):
        loss, tape = self.loss_and_grad()
        wp.launch(descend, dim=self.p.shape[0], inputs=[self.p, self.p.grad, lr])
        wp.launch(project_box, dim=self.p.shape[0], inputs=[self.p, self.lo, self.hi])
        tape.zero()
        return float(loss.numpy()[0])


rng = np.random.default_rng(3)
fit = BoxFit(rng.normal(size=(6, 3)).astype(np.float32), rng.normal(size=6).astype(np.float32), -0.5, 0.5)
for it in range(5):
    print("iter", it, "loss", fit.step(0.05))
print("params", fit.p.numpy())
