"""A duplicated launch on an array with ``retain_grad=True``: gradients double.

The spring forces are computed once for a debug print and once again for
the step, both inside the tape.  Forward values are identical, but the
forces array keeps its adjoint (``retain_grad=True``, set to inspect it), so
the backward pass adds the same contribution twice: the stiffness gradient
is exactly 2x what finite differences measure.
"""

import numpy as np
import warp as wp

N = 16


@wp.kernel
def spring_force(x: wp.array(dtype=float), k: wp.array(dtype=float), f: wp.array(dtype=float)):
    i = wp.tid()
    f[i] = -k[0] * x[i] * x[i]


@wp.kernel
def potential(f: wp.array(dtype=float), x: wp.array(dtype=float), e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, -f[i] * x[i])


x = wp.array(np.linspace(0.1, 1.0, N, dtype=np.float32), requires_grad=True)
stiffness = wp.array([3.0], dtype=float, requires_grad=True)  # expect: TW402
forces = wp.zeros(N, dtype=float, requires_grad=True, retain_grad=True)  # expect: TW203
energy = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(spring_force, dim=N, inputs=[x, stiffness], outputs=[forces])  # for the debug print below
    print("max force", np.abs(forces.numpy()).max())
    wp.launch(spring_force, dim=N, inputs=[x, stiffness], outputs=[forces])
    wp.launch(potential, dim=N, inputs=[forces, x], outputs=[energy])
tape.backward(energy)  # backward
print("d energy / d stiffness", stiffness.grad.numpy()[0])
