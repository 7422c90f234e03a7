"""Fit a cooling rate: the trajectory lives in one array filled before the tape, step t reads T[t] and writes T[t + 1].

Warp's tracker flags every step after the first (the array is written after
a launch read it); the indices say no step overwrites an element an earlier
step read. Information, not a warning.
"""

import numpy as np
import warp as wp

STEPS = 12


@wp.kernel
def cool(temp: wp.array(dtype=float), rate: wp.array(dtype=float), t: int):
    temp[t + 1] = temp[t] - 0.1 * rate[0] * temp[t] * temp[t]  # note: TW104


@wp.kernel
def final_misfit(temp: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
    d = temp[STEPS] - target
    loss[0] = d * d


def main():
    rate = wp.array([0.5], dtype=float, requires_grad=True)
    for it in range(3):
        temp = wp.zeros(STEPS + 1, dtype=float, requires_grad=True)
        temp.fill_(1.0)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            for t in range(STEPS):
                wp.launch(cool, dim=1, inputs=[temp, rate, t])  # note: TW101
            wp.launch(final_misfit, dim=1, inputs=[temp, 0.4], outputs=[loss])
        tape.backward(loss)
        rate.assign(rate.numpy() - 0.1 * rate.grad.numpy())
        tape.zero()


if __name__ == "__main__":
    main()
