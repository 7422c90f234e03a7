"""A relaxation on vec3 values stopped after 8 sweeps, in a helper function.

Each sweep still changes the iterates noticeably at the end, so the tape
differentiates the 8-step map, not the settled configuration the cost is
meant to measure.
"""

import numpy as np
import warp as wp

N = 24


@wp.kernel
def relax(p: wp.array(dtype=wp.vec3), anchor: wp.array(dtype=wp.vec3), p_next: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    j = (i + 1) % N
    p_next[i] = 0.45 * (p[i] + p[j]) + 0.1 * anchor[i]


@wp.kernel
def spread(p: wp.array(dtype=wp.vec3), out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, wp.length_sq(p[i]))


def settle(anchor, sweeps):
    iterates = [wp.zeros(N, dtype=wp.vec3, requires_grad=True) for _ in range(sweeps + 1)]
    for k in range(sweeps):  # note: TW208
        wp.launch(relax, dim=N, inputs=[iterates[k], anchor], outputs=[iterates[k + 1]])
    return iterates[-1]


rng = np.random.default_rng(3)
anchor = wp.array(rng.normal(size=(N, 3)).astype(np.float32), dtype=wp.vec3, requires_grad=True)
spread_out = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    settled = settle(anchor, 8)
    wp.launch(spread, dim=N, inputs=[settled], outputs=[spread_out])
tape.backward(spread_out)
print(anchor.grad.numpy()[:2])
