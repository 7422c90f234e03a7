# tapewatch-test: --check-launches
"""A wrong hand-written adjoint in an imported actuator library, next to a correct one.

The launch's adjoint disagrees with finite differences; the check then tests
each custom adjoint the kernel calls on its own, and the finding lands on
the wrong `wp.adjoint[u]` line in the helper module, not on the launch.
"""

import numpy as np
import warp as wp

from _helpers_actuators import smooth_saturate, soft_abs

N = 8


@wp.kernel
def actuate(u: wp.array(dtype=float), limit: float, f: wp.array(dtype=float)):
    i = wp.tid()
    f[i] = smooth_saturate(u[i], limit) + 0.1 * soft_abs(u[i], 0.01)


@wp.kernel
def effort(f: wp.array(dtype=float), e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, f[i] * f[i])


u = wp.array(np.linspace(-2.0, 2.0, N, dtype=np.float32), requires_grad=True)
f = wp.zeros(N, dtype=float, requires_grad=True)
e = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(actuate, dim=N, inputs=[u, 1.5], outputs=[f])
    wp.launch(effort, dim=N, inputs=[f], outputs=[e])
tape.backward(e)
print("d e / d u", u.grad.numpy())
