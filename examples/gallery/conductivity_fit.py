"""Fit a rod's thermal conductivity to measured end temperatures, with a small trainer class."""

import numpy as np
import warp as wp

N = 8
STEPS = 20


@wp.kernel
def diffuse(u: wp.array(dtype=float), k: wp.array(dtype=float), u_out: wp.array(dtype=float)):
    i = wp.tid()
    left = u[wp.max(i - 1, 0)]
    right = u[wp.min(i + 1, N - 1)]
    u_out[i] = u[i] + 0.2 * k[0] * (left - 2.0 * u[i] + right)


@wp.kernel
def misfit(u: wp.array(dtype=float), measured: float, loss: wp.array(dtype=float)):
    d = u[N - 1] - measured
    loss[0] = d * d


@wp.kernel
def descend(k: wp.array(dtype=float), g: wp.array(dtype=float), lr: float):
    k[0] = k[0] - lr * g[0]


class Trainer:
    def __init__(self, k):
        self.k = k
        start = np.zeros(N, dtype=np.float32)
        start[0] = 1.0
        self.u = [wp.array(start, dtype=float, requires_grad=True)]
        self.u += [wp.zeros(N, dtype=float, requires_grad=True) for _ in range(STEPS)]
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    def forward(self, measured):
        for t in range(STEPS):  # note: TW208
            wp.launch(diffuse, dim=N, inputs=[self.u[t], self.k], outputs=[self.u[t + 1]])
        wp.launch(misfit, dim=1, inputs=[self.u[STEPS], measured], outputs=[self.loss])

    def clear_gradients(self):
        self.loss.grad.zero_()  # expect: TW202
        for u in self.u:
            u.grad.zero_()


def main():
    k = wp.array([0.5], dtype=float, requires_grad=True)
    trainer = Trainer(k)
    for it in range(4):
        tape = wp.Tape()
        with tape:
            trainer.forward(0.02)
        tape.backward(trainer.loss)
        print("iter", it, "loss", trainer.loss.numpy()[0], "dL/dk", k.grad.numpy()[0])
        wp.launch(descend, dim=1, inputs=[k, k.grad, 0.5])
        trainer.clear_gradients()


if __name__ == "__main__":
    main()
