"""A dye profile advected by a method that writes `c_out`; the caller swaps its two buffers after each
step, so step s + 1 writes the buffer step s read and that step's adjoint replays with overwritten
values.  The line to change is the caller's swap (the look-alike gives each step a fresh output)."""

import numpy as np
import warp as wp

N = 32
STEPS = 5


@wp.kernel
def upwind(c: wp.array(dtype=float), speed: wp.array(dtype=float), c_out: wp.array(dtype=float)):
    i = wp.tid()
    left = c[wp.max(i - 1, 0)]
    flux = speed[0] * c[i] * c[i] - speed[0] * left * left
    c_out[i] = c[i] - 0.2 * flux


@wp.kernel
def mass(c: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, c[i] * float(i))


class Channel:
    def __init__(self, speed):
        self.speed = speed

    def step(self, c_in, c_out):
        wp.launch(upwind, dim=N, inputs=[c_in, self.speed], outputs=[c_out])


speed = wp.array([0.8], dtype=float, requires_grad=True)
profile = np.exp(-((np.arange(N) - 8.0) / 3.0) ** 2).astype(np.float32)
cur = wp.array(profile, dtype=float, requires_grad=True)
nxt = wp.zeros(N, dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
channel = Channel(speed)
tape = wp.Tape()
with tape:
    for _ in range(STEPS):
        channel.step(cur, nxt)
        cur, nxt = nxt, cur  # expect: TW101
    wp.launch(mass, dim=N, inputs=[cur], outputs=[loss])
tape.backward(loss)
print("d loss / d speed", speed.grad.numpy())
