"""Fit a spring's stiffness to displacement readings with a relative (log) misfit computed on the host.

The seed, computed in a statement of its own, is the derivative of the
mean squared log-residual with respect to the residual `lr`, an
intermediate: the chain rule's `1/x` is missing, and the call that passes
the seed to backward() is where it goes (`seed / xs`).
"""

import numpy as np
import warp as wp

N = 10
REF = np.linspace(0.2, 1.1, N).astype(np.float32)


@wp.kernel
def displace(load: wp.array(dtype=float), k: wp.array(dtype=float), x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = load[i] / k[0] + 0.01 * load[i] * load[i]


class SpringFit:
    def __init__(self):
        self.load = wp.array(np.linspace(1.0, 5.0, N, dtype=np.float32), dtype=float)
        self.k = wp.array([4.0], dtype=float, requires_grad=True)

    def step(self):
        x = wp.zeros(N, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(displace, dim=N, inputs=[self.load, self.k], outputs=[x])
        xs = x.numpy().astype(np.float64)
        lr = np.log(xs) - np.log(REF.astype(np.float64))
        loss = np.mean(lr * lr)
        seed = 2.0 * lr / N
        tape.backward(grads={x: wp.array(seed.astype(np.float32), dtype=float)})  # expect: TW204
        self.k.assign(self.k.numpy() - 0.5 * self.k.grad.numpy())
        tape.zero()
        return loss


if __name__ == "__main__":
    fit = SpringFit()
    for _ in range(3):
        print("log misfit", fit.step())
