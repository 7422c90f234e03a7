"""Fit a spring's stiffness to displacement readings with a relative (log) misfit computed on the host.

The loss is the mean squared log-residual against the reference readings
(`REF.astype(np.float64)`), but the seed passed to backward() is the
derivative with respect to log(x), missing the 1/x of the chain rule.
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
        tape.backward(grads={x: wp.array((2.0 * lr / N).astype(np.float32), dtype=float)})  # expect: TW204
        self.k.assign(self.k.numpy() - 0.5 * self.k.grad.numpy())
        tape.zero()
        return loss


if __name__ == "__main__":
    fit = SpringFit()
    for _ in range(3):
        print("log misfit", fit.step())
