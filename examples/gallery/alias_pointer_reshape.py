"""A grid cleared through a second array over the same memory.

The solver keeps a flat view of the 2D pressure grid (`reshape`) and a raw
alias made with `wp.array(ptr=...)` for a legacy routine. Clearing through
the flat view and overwriting through the alias both rewrite what the
gradient kernel read, inside the tape.
"""

import numpy as np
import warp as wp

H, W = 4, 4


@wp.kernel
def gradient(p: wp.array2d(dtype=float), g: wp.array2d(dtype=float)):
    i, j = wp.tid()
    g[i, j] = p[i, j] * p[i, j]


@wp.kernel
def fill_legacy(p: wp.array(dtype=float)):
    i = wp.tid()
    p[i] = 1.0


@wp.kernel
def total(g: wp.array2d(dtype=float), out: wp.array(dtype=float)):
    i, j = wp.tid()
    wp.atomic_add(out, 0, g[i, j])


class Solver:
    def __init__(self):
        self.pressure = wp.array(np.arange(H * W, dtype=np.float32).reshape(H, W), requires_grad=True)
        self.flat = self.pressure.reshape(H * W)
        self.legacy = wp.array(ptr=self.pressure.ptr, dtype=float, shape=(H * W,), device=self.pressure.device)
        self.g = wp.zeros((H, W), dtype=float, requires_grad=True)

    def forward(self, out):
        wp.launch(gradient, dim=(H, W), inputs=[self.pressure], outputs=[self.g])
        self.flat.zero_()  # expect: TW103
        wp.launch(fill_legacy, dim=H * W, inputs=[self.legacy])  # expect: TW101
        wp.launch(total, dim=(H, W), inputs=[self.g], outputs=[out])


solver = Solver()
out = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    solver.forward(out)
tape.backward(out)
print("d out / d p", solver.pressure.grad.numpy()[0])
