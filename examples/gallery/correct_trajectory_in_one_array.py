"""Fit a cooling constant: the whole trajectory lives in one array, step t reads T[t] and writes T[t + 1].

Every launch writes the array that earlier launches read, but never an
element one of them read: the indices are a scalar argument plus different
constants.  No overwrite to report.
"""

import numpy as np
import warp as wp

STEPS = 40


@wp.kernel
def cool(temp: wp.array(dtype=float), rate: wp.array(dtype=float), ambient: float, dt: float, t: int):
    flux = rate[0] * (temp[t] - ambient) * wp.abs(temp[t] - ambient)
    temp[t + 1] = temp[t] - dt * flux


@wp.kernel
def misfit(temp: wp.array(dtype=float), observed: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = temp[i] - observed[i]
    wp.atomic_add(loss, 0, d * d)


def simulate(rate, start=90.0):
    temp = wp.zeros(STEPS + 1, dtype=float, requires_grad=True)
    temp.fill_(start)
    for t in range(STEPS):
        wp.launch(cool, dim=1, inputs=[temp, rate, 20.0, 0.05, t])
    return temp


def main():
    observed = simulate(wp.array([0.02], dtype=float)).numpy()
    observed_wp = wp.array(observed, dtype=float)
    rate = wp.array([0.01], dtype=float, requires_grad=True)
    for it in range(5):
        tape = wp.Tape()
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        with tape:
            temp = simulate(rate)
            wp.launch(misfit, dim=STEPS + 1, inputs=[temp, observed_wp], outputs=[loss])
        tape.backward(loss)
        rate.assign(rate.numpy() - 1e-7 * rate.grad.numpy())
        tape.zero()


if __name__ == "__main__":
    main()
