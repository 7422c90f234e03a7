"""Fit a decay rate with a trainer that zeroes its tape before taking the step from the gradient."""

import numpy as np
import warp as wp


@wp.kernel
def decay(rate: wp.array(dtype=float), t: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = wp.exp(-rate[0] * t[i])


@wp.kernel
def misfit(y: wp.array(dtype=float), seen: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = y[i] - seen[i]
    wp.atomic_add(loss, 0, d * d)


class Trainer:
    def __init__(self, t, seen):
        self.t = wp.array(t, dtype=float)
        self.seen = wp.array(seen, dtype=float)
        self.rate = wp.array([0.5], dtype=float, requires_grad=True)
        self.y = wp.zeros(len(t), dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    def step(self, lr):
        self.loss.zero_()
        self.tape = wp.Tape()
        with self.tape:
            wp.launch(decay, dim=self.y.shape[0], inputs=[self.rate, self.t], outputs=[self.y])
            wp.launch(misfit, dim=self.y.shape[0], inputs=[self.y, self.seen], outputs=[self.loss])
        self.tape.backward(self.loss)
        self.tape.zero()  # expect: TW205
        self.rate.assign(self.rate.numpy() - lr * self.rate.grad.numpy())
        return float(self.loss.numpy()[0])


def main():
    t = np.linspace(0.0, 3.0, 24, dtype=np.float32)
    trainer = Trainer(t, np.exp(-1.3 * t).astype(np.float32))
    for _ in range(4):
        loss = trainer.step(0.05)
    print("loss", loss, "rate", trainer.rate.numpy()[0])


if __name__ == "__main__":
    main()
