"""Correct: the same repulsion with `wp.length`, which Warp guards at zero: finite gradients."""

import numpy as np
import warp as wp


@wp.kernel
def repulsion(x: wp.array(dtype=wp.vec3), e: wp.array(dtype=float)):
    i, j = wp.tid()
    if i < j:
        r = wp.length(x[i] - x[j])
        wp.atomic_add(e, 0, r * r * r)


x = wp.array(np.array([[0, 0, 0], [1, 0, 0], [1, 0, 0]], dtype=np.float32), dtype=wp.vec3, requires_grad=True)
e = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(repulsion, dim=(3, 3), inputs=[x], outputs=[e])
tape.backward(e)
print("d e / d x", x.grad.numpy())
