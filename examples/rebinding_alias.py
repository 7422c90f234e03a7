"""Frame aliasing by Python rebinding: ``states[0] = states[-1]``.

A rollout keeps one state per frame.  To "warm start" the next episode the
script rebinds the first frame to the last one, so two list entries are the
same arrays.  Inside the tape, the last step then writes the state the
first step read.
"""

import numpy as np
import warp as wp

FRAMES = 4
N = 8


@wp.kernel
def advance(q: wp.array(dtype=float), qd: wp.array(dtype=float), dt: float, q_out: wp.array(dtype=float)):
    i = wp.tid()
    q_out[i] = q[i] + (qd[i] - q[i] * q[i]) * dt


@wp.kernel
def final_cost(q: wp.array(dtype=float), cost: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(cost, 0, q[i] * q[i])


def make_state():
    return wp.full(N, 0.5, dtype=float, requires_grad=True)  # alloc: state


qd = wp.array(np.linspace(0.0, 1.0, N, dtype=np.float32), requires_grad=True)
states = [make_state() for _ in range(FRAMES + 1)]
states[0] = states[-1]  # the rebinding: frame 0 and frame FRAMES are one object  # expect: TW101
cost = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    for f in range(FRAMES):
        wp.launch(advance, dim=N, inputs=[states[f], qd, 0.1], outputs=[states[f + 1]])
    wp.launch(final_cost, dim=N, inputs=[states[-1]], outputs=[cost])
tape.backward(cost)
print("dcost/dqd[:2]", qd.grad.numpy()[:2])
