"""A chemostat's spin-up and its measured phase recorded on two tapes: only the measured phase's tape is
differentiated, so the gradient of the yield with respect to the uptake rate stops at the state the
spin-up handed over and misses every spin-up step (the look-alike chains the adjoint into the spin-up
tape with `backward(grads=...)`)."""

import numpy as np
import warp as wp

N = 16
SPINUP = 6
MEASURE = 4
DT = 0.1


@wp.kernel
def grow(c: wp.array(dtype=float), rate: wp.array(dtype=float), dt: float, c_out: wp.array(dtype=float)):
    i = wp.tid()
    s = c[i]
    c_out[i] = s + dt * (rate[0] * s * (1.0 - s) - 0.1 * s)


@wp.kernel
def harvest(c: wp.array(dtype=float), total: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(total, 0, c[i] * c[i] / float(N))


def run(c, rate, steps, total=None):
    for _ in range(steps):
        nxt = wp.empty_like(c)
        wp.launch(grow, dim=N, inputs=[c, rate, DT], outputs=[nxt])
        c = nxt
        if total is not None:
            wp.launch(harvest, dim=N, inputs=[c], outputs=[total])
    return c


rate = wp.array([0.8], dtype=float, requires_grad=True)
c = wp.array(np.linspace(0.05, 0.3, N, dtype=np.float32), requires_grad=True)
total = wp.zeros(1, dtype=float, requires_grad=True)
spinup = wp.Tape()
with spinup:
    c = run(c, rate, SPINUP)
measured = wp.Tape()  # expect: TW207
with measured:
    c = run(c, rate, MEASURE, total)
measured.backward(total)
print("yield", total.numpy()[0], "d yield / d rate", rate.grad.numpy())
