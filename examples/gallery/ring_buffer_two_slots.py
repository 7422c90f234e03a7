"""A damped chain rolled out on one tape with states taken from a two-slot ring: step s + 1 writes the
slot step s - 1 read, so that step's adjoint replays with overwritten values.  The line to change is
the ring's length (the look-alike's ring has a slot for every step); the pick and the launch are related."""

import numpy as np
import warp as wp

N = 8
STEPS = 6
RING = 2  # expect: TW101


@wp.kernel
def relax(x: wp.array(dtype=float), k: wp.array(dtype=float), x_out: wp.array(dtype=float)):
    i = wp.tid()
    left = x[wp.max(i - 1, 0)]
    right = x[wp.min(i + 1, N - 1)]
    x_out[i] = x[i] + 0.1 * k[0] * (left + right - 2.0 * x[i]) - 0.05 * x[i] * x[i] * x[i]


@wp.kernel
def tip(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    wp.atomic_add(loss, 0, x[N - 1] * x[N - 1])


class Chain:
    def __init__(self):
        self.ring = [wp.zeros(N, dtype=float, requires_grad=True) for _ in range(RING)]

    def rollout(self, x0, k):
        x = x0
        for s in range(STEPS):
            x_next = self.ring[(s + 1) % RING]
            wp.launch(relax, dim=N, inputs=[x, k], outputs=[x_next])
            x = x_next
        return x


k = wp.array([1.2], dtype=float, requires_grad=True)
x0 = wp.array(np.linspace(0.0, 1.0, N, dtype=np.float32), requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
chain = Chain()
tape = wp.Tape()
with tape:
    x = chain.rollout(x0, k)
    wp.launch(tip, dim=1, inputs=[x], outputs=[loss])
tape.backward(loss)
print("d loss / d k", k.grad.numpy())
