"""Match a soft histogram of particle heights to a target; the histogram buffer is zeroed each iteration.

Look-alike of histogram_match_stale.py.
"""

import numpy as np
import warp as wp

BINS = 16


@wp.kernel
def soft_histogram(heights: wp.array(dtype=float), hist: wp.array(dtype=float)):
    p, b = wp.tid()
    center = (float(b) + 0.5) / float(BINS)
    d = heights[p] - center
    wp.atomic_add(hist, b, wp.exp(-d * d / 0.002))


@wp.kernel
def histogram_error(hist: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    b = wp.tid()
    r = hist[b] - target[b]
    wp.atomic_add(loss, 0, r * r)


class HistogramFit:
    def __init__(self, heights, target):
        self.heights = wp.array(heights, dtype=float, requires_grad=True)
        self.target = wp.array(target, dtype=float)
        self.hist = wp.zeros(BINS, dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    def step(self, lr):
        self.loss.zero_()
        self.hist.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(soft_histogram, dim=(self.heights.shape[0], BINS), inputs=[self.heights],
                      outputs=[self.hist])
            wp.launch(histogram_error, dim=BINS, inputs=[self.hist, self.target], outputs=[self.loss])
        tape.backward(self.loss)
        self.heights.assign(self.heights.numpy() - lr * self.heights.grad.numpy())
        tape.zero()
        return float(self.loss.numpy()[0])


if __name__ == "__main__":
    rng = np.random.default_rng(4)
    heights = rng.uniform(0.2, 0.8, 24).astype(np.float32)
    centers = (np.arange(BINS) + 0.5) / BINS
    target = (3.0 * np.exp(-((centers - 0.5) ** 2) / 0.02)).astype(np.float32)
    fit = HistogramFit(heights, target)
    for _ in range(4):
        loss = fit.step(1e-3)
    print("loss", loss)
