"""Correct look-alike of spinup_tape_never_differentiated.py: the spin-up and the measured phase are on
two tapes, and the adjoint the measured phase leaves on the handed-over state is carried into the
spin-up tape's backward(), so the gradient covers both phases."""

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
    c_mid = run(c, rate, SPINUP)
measured = wp.Tape()
with measured:
    c = run(c_mid, rate, MEASURE, total)
measured.backward(total)
spinup.backward(grads={c_mid: c_mid.grad})
print("yield", total.numpy()[0], "d yield / d rate", rate.grad.numpy())
