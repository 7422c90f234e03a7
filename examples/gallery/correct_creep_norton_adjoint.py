# tapewatch-test: --check-launches
"""Correct look-alike of creep_norton_adjoint.py: the Norton law's hand-written adjoint (helper
_creep_laws.py) keeps the `- 1` of the exponent, and the per-launch check agrees with it."""

import numpy as np
import warp as wp

from _creep_laws import norton_ok as norton

N = 24
STEPS = 5
DT = 0.2


@wp.func
def creep_rate(stress: float, a: float, n: float):
    return a * norton(stress, n)


@wp.kernel
def relax(stress: wp.array(dtype=float), law: wp.array(dtype=float), dt: float, out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = stress[i] - dt * creep_rate(stress[i], law[0], law[1])


@wp.kernel
def preload_loss(stress: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = stress[i] - 0.4
    wp.atomic_add(loss, 0, d * d)


law = wp.array([0.3, 2.5], dtype=float, requires_grad=True)
stress = wp.array(np.linspace(0.5, 1.0, N, dtype=np.float32), requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    s = stress
    for _ in range(STEPS):
        nxt = wp.empty_like(s)
        wp.launch(relax, dim=N, inputs=[s, law, DT], outputs=[nxt])
        s = nxt
    wp.launch(preload_loss, dim=N, inputs=[s], outputs=[loss])
tape.backward(loss)
print("d loss / d (a, n)", law.grad.numpy())
