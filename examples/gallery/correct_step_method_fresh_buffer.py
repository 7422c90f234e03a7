"""Calibrate a reactor's heat-transfer coefficient; each step computes its rates into a fresh array.

`rate = wp.empty_like(self.rate)` gives every step its own rates, so each
energy update's adjoint reads the rates that step used.
"""

import numpy as np
import warp as wp

N = 16
STEPS = 5


@wp.kernel
def arrhenius(temp: wp.array(dtype=float), rate: wp.array(dtype=float)):
    i = wp.tid()
    rate[i] = wp.exp(-8.0 / (temp[i] * 0.01))


@wp.kernel
def energy(h: wp.array(dtype=float), temp: wp.array(dtype=float), rate: wp.array(dtype=float),
           out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = temp[i] + 0.1 * (rate[i] * rate[i] * 50.0 - h[0] * (temp[i] - 300.0) * 0.01)


@wp.kernel
def misfit(temp: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    r = temp[i] - 320.0
    wp.atomic_add(loss, 0, r * r)


class Reactor:
    def __init__(self):
        self.rate = wp.zeros(N, dtype=float, requires_grad=True)

    def step(self, h, temp):
        rate = wp.empty_like(self.rate)
        wp.launch(arrhenius, dim=N, inputs=[temp], outputs=[rate])
        out = wp.zeros(N, dtype=float, requires_grad=True)
        wp.launch(energy, dim=N, inputs=[h, temp, rate], outputs=[out])
        return out

    def run(self, h):
        temp = wp.array(np.linspace(300.0, 340.0, N, dtype=np.float32), dtype=float, requires_grad=True)
        for _ in range(STEPS):
            temp = self.step(h, temp)
        return temp


def main():
    h = wp.array([2.0], dtype=float, requires_grad=True)
    reactor = Reactor()
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        temp = reactor.run(h)
        wp.launch(misfit, dim=N, inputs=[temp], outputs=[loss])
    tape.backward(loss)
    print("dL/dh", h.grad.numpy())


if __name__ == "__main__":
    main()
