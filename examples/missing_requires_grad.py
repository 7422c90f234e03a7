"""An intermediate allocated without ``requires_grad``: a silently broken chain.

``wp.zeros`` defaults to ``requires_grad=False``.  The drag forces buffer
sits between the drag coefficient and the loss, so no adjoint flows through
it: autodiff says the coefficient does not matter (zero gradient) while
finite differences clearly disagree.  A verification run points at the
allocation (TW201); the FD harness measures the damage (TW401).
"""

import numpy as np
import warp as wp

N = 32


@wp.kernel
def drag(v: wp.array(dtype=float), c: wp.array(dtype=float), f: wp.array(dtype=float)):
    i = wp.tid()
    f[i] = -c[0] * v[i] * wp.abs(v[i])


@wp.kernel
def integrate(v: wp.array(dtype=float), f: wp.array(dtype=float), dt: float, v_out: wp.array(dtype=float)):
    i = wp.tid()
    v_out[i] = v[i] + f[i] * dt


@wp.kernel
def kinetic(v: wp.array(dtype=float), e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, 0.5 * v[i] * v[i])


v0 = wp.array(np.linspace(-2.0, 2.0, N, dtype=np.float32), requires_grad=True)
drag_coefficient = wp.array([0.3], dtype=float, requires_grad=True)  # expect: TW401
forces = wp.zeros(N, dtype=float)  # the bug: no requires_grad=True  # expect: TW201
v1 = wp.zeros(N, dtype=float, requires_grad=True)
energy = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(drag, dim=N, inputs=[v0, drag_coefficient], outputs=[forces])
    wp.launch(integrate, dim=N, inputs=[v0, forces, 0.1], outputs=[v1])
    wp.launch(kinetic, dim=N, inputs=[v1], outputs=[energy])
tape.backward(energy)  # backward
print("d energy / d drag", drag_coefficient.grad.numpy()[0])
