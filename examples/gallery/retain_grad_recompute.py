"""A recomputation on an array kept with retain_grad=True (to inspect its gradient).

`Cloth.forces()` is called once for a log line and once for the step, both
inside the tape; both launches assign `f`. Because `f` keeps its gradient,
both adjoints receive it and the stiffness gradient comes out doubled.
"""

import numpy as np
import warp as wp

N = 8


@wp.kernel
def spring(x: wp.array(dtype=float), k: wp.array(dtype=float), f: wp.array(dtype=float)):
    i = wp.tid()
    f[i] = -k[0] * x[i]


@wp.kernel
def work(f: wp.array(dtype=float), x: wp.array(dtype=float), e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, f[i] * x[i])


class Cloth:
    def __init__(self):
        self.x = wp.array(np.linspace(0.1, 1.0, N, dtype=np.float32), requires_grad=True)
        self.k = wp.array([3.0], dtype=float, requires_grad=True)
        self.f = wp.zeros(N, dtype=float, requires_grad=True, retain_grad=True)  # expect: TW203

    def forces(self):
        wp.launch(spring, dim=N, inputs=[self.x, self.k], outputs=[self.f])


cloth = Cloth()
e = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    cloth.forces()
    print("max |f|", np.abs(cloth.f.numpy()).max())
    cloth.forces()
    wp.launch(work, dim=N, inputs=[cloth.f, cloth.x], outputs=[e])
tape.backward(e)
print("d e / d k", cloth.k.grad.numpy())
