"""Correct: a fresh @wp.struct state per step, so no launch overwrites what another read."""

import numpy as np
import warp as wp

N = 8


@wp.struct
class State:
    q: wp.array(dtype=wp.vec3)
    qd: wp.array(dtype=wp.vec3)


@wp.kernel
def integrate(s: State, dt: float, out: State):
    i = wp.tid()
    a = -s.q[i] * wp.length(s.q[i])
    out.qd[i] = s.qd[i] + a * dt
    out.q[i] = s.q[i] + out.qd[i] * dt


@wp.kernel
def energy(s: State, e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, wp.dot(s.q[i], s.q[i]))


def make_state(q0=None):
    s = State()
    s.q = wp.array(q0, dtype=wp.vec3, requires_grad=True) if q0 is not None else \
        wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    s.qd = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    return s


states = [make_state(np.random.default_rng(1).standard_normal((N, 3)).astype(np.float32))]
states += [make_state() for _ in range(4)]
e = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    for step in range(4):
        wp.launch(integrate, dim=N, inputs=[states[step], 0.01], outputs=[states[step + 1]])
    wp.launch(energy, dim=N, inputs=[states[-1]], outputs=[e])
tape.backward(e)
print("d e / d q0", states[0].q.grad.numpy()[0])
