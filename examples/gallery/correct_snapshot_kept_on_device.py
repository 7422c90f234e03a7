"""A tracer transport fitted through snapshots: every few steps a host copy of the state is kept for a
plot, and a constant array of the same shape is made from other host data on a later line; the rollout
continues from the state itself, so the gradient reaches the rate through every step."""

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
def weighted_total(c: wp.array(dtype=float), w: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, w[i] * c[i])


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
        return c


rate = wp.array([0.7], dtype=float, requires_grad=True)
c0 = wp.array(np.linspace(0.2, 1.0, N, dtype=np.float32), requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
transport = Transport()
tape = wp.Tape()
with tape:
    c = transport.run(c0, rate)
    weights = wp.array(np.linspace(1.0, 2.0, N, dtype=np.float32), dtype=float)
    wp.launch(weighted_total, dim=N, inputs=[c, weights], outputs=[loss])
tape.backward(loss)
print("d loss / d rate", rate.grad.numpy(), "snapshots", len(transport.snapshots))
