"""Correct look-alike of radiator_tuple_alias.py: the tuple gives the temperatures a fresh array at each
step; the heat-flux output is shared between steps (`q_out = q`), but no launch reads it."""

import numpy as np
import warp as wp

N = 16
DT = 0.05
STEPS = 4


@wp.kernel
def radiate(T: wp.array(dtype=float), emissivity: wp.array(dtype=float), dt: float,
            T_out: wp.array(dtype=float), q_out: wp.array(dtype=float)):
    i = wp.tid()
    t = T[i]
    q = emissivity[0] * (t * t * t * t - 0.2)
    q_out[i] = q
    T_out[i] = t - dt * q


@wp.kernel
def mean_square(T: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, T[i] * T[i] / float(N))


def cool(T, q, emissivity):
    T_out, q_out = wp.empty_like(T), q
    wp.launch(radiate, dim=N, inputs=[T, emissivity, DT], outputs=[T_out, q_out])
    return T_out


T = wp.array(np.linspace(0.6, 1.0, N, dtype=np.float32), requires_grad=True)
q = wp.zeros(N, dtype=float, requires_grad=True)
emissivity = wp.array([0.8], dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    for _ in range(STEPS):
        T = cool(T, q, emissivity)
    wp.launch(mean_square, dim=N, inputs=[T], outputs=[loss])
tape.backward(loss)
print("d loss / d emissivity", emissivity.grad.numpy())
