"""Tune a kiln's heating rate with one tape object and kept buffers, reset() between iterations.

Looks like kiln_schedule_rerecorded.py, but tape.reset() drops the recorded
launches (and zeroes the gradients): each backward() replays one iteration.
"""

import numpy as np
import warp as wp

STEPS = 30


@wp.kernel
def heat(temp: wp.array(dtype=float), power: wp.array(dtype=float), dt: float, t: int):
    temp[t + 1] = temp[t] + dt * (power[0] - 0.05 * (temp[t] - 20.0))


@wp.kernel
def overshoot(temp: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    d = temp[i] - target
    wp.atomic_add(loss, 0, d * d)


class Kiln:
    def __init__(self):
        self.temp = wp.zeros(STEPS + 1, dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    def cost(self, power):
        self.temp.fill_(20.0)
        self.loss.zero_()
        for t in range(STEPS):
            wp.launch(heat, dim=1, inputs=[self.temp, power, 0.1, t])
        wp.launch(overshoot, dim=STEPS + 1, inputs=[self.temp, 60.0], outputs=[self.loss])
        return self.loss


def main():
    kiln = Kiln()
    power = wp.array([8.0], dtype=float, requires_grad=True)
    tape = wp.Tape()
    for it in range(4):
        with tape:
            loss = kiln.cost(power)
        tape.backward(loss)
        power.assign(power.numpy() - 1e-4 * power.grad.numpy())
        tape.reset()


if __name__ == "__main__":
    main()
