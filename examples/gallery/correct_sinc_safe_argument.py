"""Line-array directivity in diffuse noise, with the sinc argument made safe where it is computed
(``wp.max(kr, 1e-6)``): the masked branch's division is finite everywhere, so its derivative times the
mask's zero is zero, not NaN."""

import numpy as np
import warp as wp

wp.config.quiet = True

N_MIC = 6


@wp.kernel
def coherence(prm: wp.array(dtype=float), out: wp.array(dtype=float)):
    i, j = wp.tid()
    r = wp.abs(float(i - j)) * prm[0]
    kr = wp.max(2.0 * wp.pi * prm[1] * r / 343.0, 1.0e-6)
    s = wp.where(kr > 2.0e-6, wp.sin(kr) / kr, 1.0)  # note: TW304
    wp.atomic_add(out, 0, s)


prm = wp.array([0.04, 1800.0], dtype=float, requires_grad=True)
out = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(coherence, dim=(N_MIC, N_MIC), inputs=[prm], outputs=[out])
tape.backward(out)
print(float(out.numpy()[0]), prm.grad.numpy())
