"""A tracer transport fitted through snapshots: every few steps the state is copied to the host for a
plot and the rollout continues from an array rebuilt from that copy, on a later line.  The values leave
Warp, so the gradient stops at the rebuilt array (the look-alike continues from the state itself)."""

import numpy as np
import warp as wp

N = 24
STEPS = 6
SNAP_EVERY = 3


@wp.kernel
def decay(c: wp.array(dtype=float), rate: wp.array(dtype=float), c_out: wp.array(dtype=float)):
    i = wp.tid()
    c_out[i] = c[i] - 0.1 * rate[0] * c[i] * c[i]


@wp.kernel
def total(c: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, c[i])


class Transport:
    def __init__(self):
        self.snapshots = []

    def run(self, c, rate):
        for s in range(STEPS):
            c_next = wp.empty_like(c)
            wp.launch(decay, dim=N, inputs=[c, rate], outputs=[c_next])
            c = c_next
            if (s + 1) % SNAP_EVERY == 0:
                self.snapshots.append(c.numpy().copy())
                c = wp.array(self.snapshots[-1], dtype=float, requires_grad=True)  # expect: TW207
        return c


rate = wp.array([0.7], dtype=float, requires_grad=True)
c0 = wp.array(np.linspace(0.2, 1.0, N, dtype=np.float32), requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    c = Transport().run(c0, rate)
    wp.launch(total, dim=N, inputs=[c], outputs=[loss])
tape.backward(loss)
print("d loss / d rate", rate.grad.numpy())
