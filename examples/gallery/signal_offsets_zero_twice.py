"""Tune two sets of traffic-signal parameters; each step zeroes the gradients by hand, one line copy-pasted.

The second zero_() repeats the first gradient instead of the other one, so
`offset.grad` keeps adding up across steps.  That repeated line is the one
to change.
"""

import numpy as np
import warp as wp

N = 8


@wp.kernel
def delay(split: wp.array(dtype=float), offset: wp.array(dtype=float), arrivals: wp.array(dtype=float),
          loss: wp.array(dtype=float)):
    i = wp.tid()
    green = 0.5 + 0.4 * wp.tanh(split[i])
    phase = wp.sin(offset[i] + 0.3 * float(i))
    queue = arrivals[i] * (1.0 - green) + 0.2 * phase * phase
    wp.atomic_add(loss, 0, queue * queue)


def main():
    rng = np.random.default_rng(3)
    arrivals = wp.array(rng.uniform(0.5, 1.5, N).astype(np.float32), dtype=float)
    split = wp.array(np.zeros(N, dtype=np.float32), dtype=float, requires_grad=True)
    offset = wp.array(np.full(N, 0.3, dtype=np.float32), dtype=float, requires_grad=True)
    for it in range(4):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(delay, dim=N, inputs=[split, offset, arrivals], outputs=[loss])
        tape.backward(loss)
        split.assign(split.numpy() - 0.05 * split.grad.numpy())
        offset.assign(offset.numpy() - 0.05 * offset.grad.numpy())
        split.grad.zero_()
        split.grad.zero_()  # expect: TW202


if __name__ == "__main__":
    main()
