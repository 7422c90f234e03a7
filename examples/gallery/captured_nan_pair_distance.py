# tapewatch-test: warp>=1.19
"""Pairwise repulsion captured with its backward and replayed (``wp.ScopedCapture``): the distance is
``sqrt(dot(d, d))`` in a @wp.func, and two particles start at the same point.  The energy is finite, the
derivative of sqrt at zero is not: the gradient is NaN after every replay.  (``wp.length`` is guarded at
zero; ``wp.sqrt(wp.dot(d, d))`` is not.)"""

import numpy as np
import warp as wp

wp.config.quiet = True


@wp.func
def distance(a: wp.vec3, b: wp.vec3):
    d = a - b
    return wp.sqrt(wp.dot(d, d))  # expect: TW403


@wp.kernel
def repulsion(x: wp.array(dtype=wp.vec3), e: wp.array(dtype=float)):
    i, j = wp.tid()
    if i < j:
        r = distance(x[i], x[j])
        wp.atomic_add(e, 0, r * r * r / float(i + j + 1))


x = wp.array(np.array([[0, 0, 0], [1, 0, 0], [1, 0, 0], [0, 2, 0]], dtype=np.float32), dtype=wp.vec3,
             requires_grad=True)
e = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
wp.load_module()
with wp.ScopedCapture() as capture:
    e.zero_()
    tape.zero()
    with tape:
        wp.launch(repulsion, dim=(4, 4), inputs=[x], outputs=[e])
    tape.backward(e)
for it in range(2):
    wp.capture_launch(capture.graph)
print("d e / d x", x.grad.numpy())
