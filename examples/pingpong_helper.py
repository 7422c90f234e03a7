"""Ping-pong buffers inside one tape, the launch inside a helper function.

A projectile is integrated by swapping two state buffers every step.  The
forward pass is right; the gradient is not: on one tape, step k+1 writes the
buffer step k read, so the adjoints of the early steps replay against the
final positions.  Warp's own tracker stays silent here (it does not mark
``x`` read in ``x_out[i] = x[i] + (...) * dt``), and the gradient with
respect to the velocity is wrong (the FD harness shows by how much).

Fix: allocate one state per step (see ``correct_fresh_arrays.py``).
"""

import numpy as np
import warp as wp

N = 8
STEPS = 6
DT = 0.05


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), dt: float, x_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    # quadratic drag: the adjoint needs the positions this launch read
    x_out[i] = x[i] + (v[i] - 0.5 * x[i] * wp.length(x[i])) * dt


@wp.kernel
def height_loss(x: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    p = x[i]
    wp.atomic_add(loss, 0, p[1] * p[1])


class State:
    def __init__(self, q):
        self.q = wp.array(q, dtype=wp.vec3, requires_grad=True)


def simulate_step(state_in, velocity, state_out):
    wp.launch(integrate, dim=N, inputs=[state_in.q, velocity, DT], outputs=[state_out.q])  # expect: TW101


rng = np.random.default_rng(0)
start = rng.standard_normal((N, 3)).astype(np.float32)
a = State(start)  # alloc: a
b = State(start)  # alloc: b
velocity = wp.array(np.ones((N, 3), dtype=np.float32), dtype=wp.vec3, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    for step in range(STEPS // 2):
        simulate_step(a, velocity, b)  # caller: a->b
        simulate_step(b, velocity, a)  # caller: b->a
    wp.launch(height_loss, dim=N, inputs=[a.q], outputs=[loss])
tape.backward(loss)

print("loss", loss.numpy()[0])
print("d loss / d velocity[0]", velocity.grad.numpy()[0])
