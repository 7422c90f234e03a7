"""Calibrate a reactor's heat-transfer coefficient; each step method reuses the object's scratch array.

`rate = self.rate` hands every step the one array the object holds: the
next step's reaction-rate launch overwrites what the previous step's
energy update read, so that update's adjoint replays with the last
step's rates.
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
        rate = self.rate  # expect: TW101
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
