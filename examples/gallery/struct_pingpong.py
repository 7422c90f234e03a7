"""Two simulation states held in a @wp.struct, swapped every step on one tape.

Warp's tracker never looks inside structs, so it is silent; the adjoint of
every step but the last replays against the final state.
"""

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
    a = -s.q[i] * wp.length(s.q[i])  # nonlinear: the adjoint needs q
    out.qd[i] = s.qd[i] + a * dt
    out.q[i] = s.q[i] + out.qd[i] * dt


@wp.kernel
def energy(s: State, e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, wp.dot(s.q[i], s.q[i]))


def make_state(q0):
    s = State()
    s.q = wp.array(q0, dtype=wp.vec3, requires_grad=True)
    s.qd = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    return s


q0 = np.random.default_rng(1).standard_normal((N, 3)).astype(np.float32)
front, back = make_state(q0), make_state(q0)
e = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    for step in range(4):
        wp.launch(integrate, dim=N, inputs=[front, 0.01], outputs=[back])
        front, back = back, front  # expect: TW101 (q)  note: TW101 (qd)
    wp.launch(energy, dim=N, inputs=[front], outputs=[e])
tape.backward(e)
print("energy", e.numpy()[0])
