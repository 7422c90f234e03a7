"""The batch loss seeded with ones in a helper module while the helper reports the mean."""

import numpy as np
import warp as wp

from _helpers_training import train_step

B = 8


@wp.kernel
def per_sample_loss(w: wp.array(dtype=float), xs: wp.array(dtype=float), ys: wp.array(dtype=float),
                    out: wp.array(dtype=float)):
    i = wp.tid()
    d = w[0] * xs[i] - ys[i]
    out[i] = d * d


w = wp.array([0.1], dtype=float, requires_grad=True)
xs = wp.array(np.linspace(-1, 1, B, dtype=np.float32))
ys = wp.array(np.linspace(-2, 2, B, dtype=np.float32))
out = wp.zeros(B, dtype=float, requires_grad=True)
for epoch in range(2):
    tape = wp.Tape()
    with tape:
        wp.launch(per_sample_loss, dim=B, inputs=[w, xs, ys], outputs=[out])
    print(epoch, train_step(tape, out, [w], 0.1))
