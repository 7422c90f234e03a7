"""Line-array directivity in diffuse noise: the coherence between two microphones is sinc(k r), with
the zero-distance pairs (a microphone with itself) masked by ``wp.where``.  The mask keeps the value
finite, but both operands of ``wp.where`` are differentiated: the division by ``kr = 0`` gives an infinite
derivative, and 0 times it is NaN.  ``kr`` is the line to change (make it safe where it is computed)."""

import numpy as np
import warp as wp

wp.config.quiet = True

N_MIC = 6


@wp.kernel
def coherence(prm: wp.array(dtype=float), out: wp.array(dtype=float)):
    i, j = wp.tid()
    r = wp.abs(float(i - j)) * prm[0]
    kr = 2.0 * wp.pi * prm[1] * r / 343.0  # expect: TW403
    s = wp.where(kr > 1.0e-6, wp.sin(kr) / kr, 1.0)
    wp.atomic_add(out, 0, s)


prm = wp.array([0.04, 1800.0], dtype=float, requires_grad=True)
out = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(coherence, dim=(N_MIC, N_MIC), inputs=[prm], outputs=[out])
tape.backward(out)
print(float(out.numpy()[0]), prm.grad.numpy())
