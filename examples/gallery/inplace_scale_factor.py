"""An in-place `*=` with a learnable factor.

`x[i] *= gain[0]` overwrites x: the gradient with respect to x survives, but
the adjoint of `gain` needs the old x, which is gone. The lint (TW301) sees
the pattern in the source; the run confirms it on this launch (TW104).
"""

import numpy as np
import warp as wp

N = 8


@wp.kernel
def amplify(x: wp.array(dtype=float), gain: wp.array(dtype=float)):
    i = wp.tid()
    x[i] *= gain[0]  # expect: TW104


@wp.kernel
def total(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, x[i])


signal = wp.array(np.linspace(1.0, 2.0, N, dtype=np.float32), requires_grad=True)
gain = wp.array([1.5], dtype=float, requires_grad=True)
out = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(amplify, dim=N, inputs=[signal, gain])
    wp.launch(total, dim=N, inputs=[signal], outputs=[out])
tape.backward(out)
print("d out / d gain", gain.grad.numpy(), "(finite differences: sum(x) =", np.linspace(1, 2, N).sum(), ")")
