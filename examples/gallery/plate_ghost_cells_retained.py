"""A heated rod with insulated ends, stepped with ghost cells: every step's temperature array is kept with
retain_grad=True to map sensitivities.  The diffusion kernel assigns the whole array, then an insulation
pass assigns the two ghost cells again: the retained gradient is not cleared between the two adjoints,
so the ghost cells' gradient is counted twice.  The insulation pass is part of the model: the allocation
that asks for retain_grad=True is the line to change (the look-alike applies the insulation inside the
diffusion kernel)."""

import numpy as np
import warp as wp

NC = 12
STEPS = 8
R = 0.3


@wp.kernel
def diffuse(T: wp.array(dtype=float), source: wp.array(dtype=float), T_out: wp.array(dtype=float)):
    i = wp.tid()
    left = T[wp.max(i - 1, 0)]
    right = T[wp.min(i + 1, NC + 1)]
    T_out[i] = T[i] + R * (left - 2.0 * T[i] + right) + source[0] * wp.exp(-float(i)) * 0.1


@wp.kernel
def insulate(T: wp.array(dtype=float)):
    side = wp.tid()
    if side == 0:
        T[0] = T[1]  # note: TW104
    else:
        T[NC + 1] = T[NC]  # note: TW104


@wp.kernel
def probe_misfit(T: wp.array(dtype=float), target: float, loss: wp.array(dtype=float)):
    d = T[NC // 2] - target
    loss[0] = d * d * d * d


source = wp.array([2.0], dtype=float, requires_grad=True)
temps = [wp.zeros(NC + 2, dtype=float, requires_grad=True, retain_grad=True) for _ in range(STEPS + 1)]  # expect: TW203
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    for n in range(STEPS):
        wp.launch(diffuse, dim=NC + 2, inputs=[temps[n], source], outputs=[temps[n + 1]])
        wp.launch(insulate, dim=2, inputs=[temps[n + 1]])
    wp.launch(probe_misfit, dim=1, inputs=[temps[-1], 0.4], outputs=[loss])
tape.backward(loss)
print("d loss / d source", source.grad.numpy(), "sensitivity map", temps[STEPS // 2].grad.numpy()[:3])
