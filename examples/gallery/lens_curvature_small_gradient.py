"""Thin-lens focal fit in millimetres: the lensmaker's power is built as a local mat22 ray-transfer matrix and
its power entry is rescaled in place for the glass index (``M[1, 0] = M[1, 0] * (n - 1)``), a second
assignment to one component of a local matrix, which Warp does not differentiate.  The gradients with
respect to the radii are of order 1e-5 (radii of hundreds of millimetres): the launch check still measures
the adjoint wrong, so the finding stays a warning and the check's failure is reported with it.
tapewatch-test: --check-launches"""

import numpy as np
import warp as wp

wp.config.quiet = True


@wp.kernel
def focus(radii: wp.array(dtype=float), n_glass: float, heights: wp.array(dtype=float),
          loss: wp.array(dtype=float)):
    i = wp.tid()
    M = wp.mat22(1.0, 0.0, -(1.0 / radii[0] - 1.0 / radii[1]), 1.0)
    M[1, 0] = M[1, 0] * (n_glass - 1.0)  # expect: TW302 expect: TW404
    y = heights[i]
    u = M[1, 0] * y
    z = -y / u
    d = z - 250.0
    wp.atomic_add(loss, 0, 1.0e-7 * d * d)


radii = wp.array([400.0, -600.0], dtype=float, requires_grad=True)
heights = wp.array(np.linspace(2.0, 10.0, 5).astype(np.float32), dtype=float)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(focus, dim=5, inputs=[radii, 1.5, heights], outputs=[loss])
tape.backward(loss)
print(float(loss.numpy()[0]), radii.grad.numpy())
