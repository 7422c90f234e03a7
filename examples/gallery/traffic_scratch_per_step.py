"""Traffic on a ring road: each step computes every car's speed into a scratch array, then moves the
cars with a drag that is quadratic in it.  `speed = self.speed` hands every step the one scratch array,
so the next step's speed overwrites the values the previous step's move read, and its adjoint replays
with the wrong speeds.  That line is the one to change (the look-alike allocates a speed per step).
`k = self.k` only names the parameter every step reads."""

import numpy as np
import warp as wp

N = 20
STEPS = 6
DT = 0.1


@wp.kernel
def car_speed(gap: wp.array(dtype=float), k: wp.array(dtype=float), speed: wp.array(dtype=float)):
    i = wp.tid()
    speed[i] = k[0] * wp.tanh(gap[i] - k[1])


@wp.kernel
def move(gap: wp.array(dtype=float), speed: wp.array(dtype=float), dt: float, gap_out: wp.array(dtype=float)):
    i = wp.tid()
    ahead = speed[(i + 1) % N]
    gap_out[i] = gap[i] + dt * (ahead - speed[i]) - 0.01 * dt * speed[i] * speed[i]


@wp.kernel
def jam_measure(gap: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = gap[i] - 1.0
    wp.atomic_add(loss, 0, d * d)


class Ring:
    def __init__(self, k):
        self.k = k
        self.speed = wp.zeros(N, dtype=float, requires_grad=True)

    def run(self, gap):
        for _ in range(STEPS):
            k = self.k
            speed = self.speed  # expect: TW101
            wp.launch(car_speed, dim=N, inputs=[gap, k], outputs=[speed])
            nxt = wp.empty_like(gap)
            wp.launch(move, dim=N, inputs=[gap, speed, DT], outputs=[nxt])
            gap = nxt
        return gap


ring = Ring(wp.array([1.2, 0.8], dtype=float, requires_grad=True))
gap = wp.array(1.0 + 0.3 * np.sin(np.linspace(0.0, 6.28, N)).astype(np.float32), requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    final = ring.run(gap)
    wp.launch(jam_measure, dim=N, inputs=[final], outputs=[loss])
tape.backward(loss)
print("jam", loss.numpy()[0], "d jam / d k", ring.k.grad.numpy())
