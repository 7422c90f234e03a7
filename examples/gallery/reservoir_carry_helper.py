"""Tune a reservoir's outflow gain over a season recorded in monthly stretches on one tape.

Each month ends by handing its last level to the next through `carry_over`,
a helper that clones it while the tape is not recording: backward() stops
at the clone, so the gain's effect on earlier months is cut. The call of
the helper is the line to change (carry inside `with tape:`).
"""

import numpy as np
import warp as wp

MONTHS = 3
DAYS = 6


@wp.kernel
def day(level: wp.array(dtype=float), inflow: float, gain: wp.array(dtype=float), level_out: wp.array(dtype=float)):
    h = level[0]
    level_out[0] = h + 0.1 * (inflow - gain[0] * wp.sqrt(h + 1.0))


@wp.kernel
def deviation(level: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
    d = level[0] - target
    wp.atomic_add(loss, 0, d * d)


def carry_over(level):
    """The next month's starting level."""
    return wp.clone(level)


class Season:
    def __init__(self, gain):
        self.gain = gain
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.start = wp.array([2.0], dtype=float, requires_grad=True)

    def month(self, tape, inflows):
        levels = [self.start] + [wp.zeros(1, dtype=float, requires_grad=True) for _ in range(DAYS)]
        with tape:
            for d in range(DAYS):  # note: TW208
                wp.launch(day, dim=1, inputs=[levels[d], float(inflows[d]), self.gain], outputs=[levels[d + 1]])
                wp.launch(deviation, dim=1, inputs=[levels[d + 1], 2.5], outputs=[self.loss])
        self.start = carry_over(levels[-1])  # expect: TW207


def main():
    gain = wp.array([0.8], dtype=float, requires_grad=True)
    season = Season(gain)
    inflows = np.linspace(0.5, 1.5, MONTHS * DAYS)
    tape = wp.Tape()
    for m in range(MONTHS):
        season.month(tape, inflows[m * DAYS:(m + 1) * DAYS])
    tape.backward(season.loss)
    print("cost", season.loss.numpy()[0], "d cost / d gain", gain.grad.numpy()[0])


if __name__ == "__main__":
    main()
