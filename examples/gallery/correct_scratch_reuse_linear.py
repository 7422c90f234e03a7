"""Correct: one scratch buffer reused by two linear passes (a transform and its inverse).

The second pass overwrites the scratch the first pass's reader read. Warp's
tracker warns; but the reader is linear in the scratch, so its adjoint never
uses the overwritten values and the gradient is exactly the same. Reported
as information, with the reason.
"""

import numpy as np
import warp as wp

N = 8


@wp.kernel
def butterfly(src: wp.array(dtype=float), scratch: wp.array(dtype=float)):
    i = wp.tid()
    j = (i + N // 2) % N
    scratch[i] = 0.5 * (src[i] + src[j])


@wp.kernel
def scale_into(scratch: wp.array(dtype=float), s: float, dst: wp.array(dtype=float)):
    i = wp.tid()
    dst[i] = s * scratch[i]


@wp.kernel
def energy(x: wp.array(dtype=float), e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, wp.sin(x[i]))


signal = wp.array(np.linspace(0, 1, N, dtype=np.float32), requires_grad=True)
scratch = wp.zeros(N, dtype=float, requires_grad=True)
a = wp.zeros(N, dtype=float, requires_grad=True)
b = wp.zeros(N, dtype=float, requires_grad=True)
e = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(butterfly, dim=N, inputs=[signal], outputs=[scratch])
    wp.launch(scale_into, dim=N, inputs=[scratch, 2.0], outputs=[a])
    wp.launch(butterfly, dim=N, inputs=[a], outputs=[scratch])  # note: TW101 (linear reader)
    wp.launch(scale_into, dim=N, inputs=[scratch, 0.5], outputs=[b])
    wp.launch(energy, dim=N, inputs=[b], outputs=[e])
tape.backward(e)
print("d e / d signal", signal.grad.numpy())
