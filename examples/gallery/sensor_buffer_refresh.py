"""Fit a drifting sensor's gain to readings that arrive in a reused NumPy buffer.

The readings array wraps the NumPy buffer without a copy (``copy=False``), so
refreshing the buffer for the next frame while this frame's tape is still
waiting for its backward() changes the values the misfit's adjoint replays.
"""

import numpy as np
import warp as wp

N = 64


@wp.kernel
def misfit(gain: wp.array(dtype=float), raw: wp.array(dtype=float), readings: wp.array(dtype=float),
           loss: wp.array(dtype=float)):
    i = wp.tid()
    r = gain[0] * raw[i] - readings[i]
    wp.atomic_add(loss, 0, r * r * readings[i])


class Feed:
    def __init__(self):
        self.buffer = np.linspace(0.5, 1.5, N).astype(np.float32)

    def frame(self):
        return wp.array(self.buffer, dtype=float, copy=False)  # expect@cpu: TW106 (copy=False wraps the NumPy buffer on the CPU only; on a GPU Warp copies it)

    def advance(self):
        self.buffer *= 1.01


def main():
    feed = Feed()
    raw = wp.array(np.linspace(0.4, 1.2, N).astype(np.float32), dtype=float)
    gain = wp.array([0.8], dtype=float, requires_grad=True)
    for step in range(3):
        readings = feed.frame()
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(misfit, dim=N, inputs=[gain, raw, readings], outputs=[loss])
        feed.advance()
        tape.backward(loss)
        gain.assign(gain.numpy() - 0.01 * gain.grad.numpy())
        tape.zero()


if __name__ == "__main__":
    main()
