"""Fit a heat-sink's fin conductances; a helper logs the fin temperatures through NumPy mid-tape.

`wp.array(temps.numpy())` makes a fresh array from the values while the
tape records, and the radiation kernel reads that copy: the gradient stops
at it, whether backward() is given a loss or seeded by hand.
"""

import numpy as np
import warp as wp

N = 16


@wp.kernel
def conduct(k: wp.array(dtype=float), t_base: float, temps: wp.array(dtype=float)):
    i = wp.tid()
    temps[i] = t_base / (1.0 + k[i] * float(i + 1) * 0.1)


@wp.kernel
def radiate(temps: wp.array(dtype=float), flux: wp.array(dtype=float)):
    i = wp.tid()
    t = temps[i] * 0.01
    flux[i] = t * t * t * t


class FinModel:
    def __init__(self):
        self.k = wp.array(np.linspace(0.5, 1.5, N, dtype=np.float32), requires_grad=True)
        self.history = []

    def forward(self):
        temps = wp.zeros(N, requires_grad=True)
        wp.launch(conduct, dim=N, inputs=[self.k, 350.0], outputs=[temps])
        logged = wp.array(temps.numpy(), dtype=float, requires_grad=True)  # expect: TW207
        self.history.append(logged)
        flux = wp.zeros(N, requires_grad=True)
        wp.launch(radiate, dim=N, inputs=[logged], outputs=[flux])
        return flux


def main():
    model = FinModel()
    target = np.full(N, 120.0, dtype=np.float32)
    for _ in range(3):
        tape = wp.Tape()
        with tape:
            flux = model.forward()
        residual = flux.numpy() - target
        tape.backward(grads={flux: wp.array(2.0 * residual / N, dtype=float)})
        model.k.assign(model.k.numpy() - 1e-5 * model.k.grad.numpy())
        tape.zero()


if __name__ == "__main__":
    main()
