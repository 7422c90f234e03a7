"""Clamping positions through their NumPy view between recording and backward().

On the CPU `x.numpy()` is a view of Warp's memory: the in-place clip writes
the array the tape read without any Warp call.
"""

import numpy as np
import warp as wp

N = 5


@wp.kernel
def potential(x: wp.array(dtype=float), e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, wp.sin(x[i]) * x[i])


x = wp.array(np.linspace(-2.0, 2.0, N, dtype=np.float32), requires_grad=True)
e = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(potential, dim=N, inputs=[x], outputs=[e])
view = x.numpy()
np.clip(view, -1.0, 1.0, out=view)  # expect@cpu: TW106 (on a GPU .numpy() is a copy: the clip never reaches x)
tape.backward(e)
print("d e / d x", x.grad.numpy())
