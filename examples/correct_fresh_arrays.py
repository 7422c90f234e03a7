"""A correct program: names are rebound to *fresh* arrays.

Same projectile as ``pingpong_helper.py``, but every step allocates its
output, so nothing read on the tape is ever overwritten.  A training loop
builds a fresh tape per iteration and updates the parameter outside it:
the reads of one tape are forgotten at its ``backward()``, so no iteration
reports the previous one (before 1.17 Warp kept its read flags across
iterations; Tapewatch forgets them per tape on every version).  Tapewatch
must report nothing, and the FD harness passes.
"""

import numpy as np
import warp as wp

N = 8
STEPS = 6
DT = 0.05


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), dt: float, x_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x_out[i] = x[i] + (v[i] - 0.5 * x[i] * wp.length(x[i])) * dt


@wp.kernel
def height_loss(x: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    p = x[i]
    wp.atomic_add(loss, 0, p[1] * p[1])


@wp.kernel
def sgd(p: wp.array(dtype=wp.vec3), g: wp.array(dtype=wp.vec3), lr: float):
    i = wp.tid()
    p[i] = p[i] - g[i] * lr


def rollout(x0, velocity, loss):
    x = x0
    for _ in range(STEPS):
        x_next = wp.empty_like(x)
        wp.launch(integrate, dim=N, inputs=[x, velocity, DT], outputs=[x_next])
        x = x_next  # rebinding to a fresh array: safe
    wp.launch(height_loss, dim=N, inputs=[x], outputs=[loss])


rng = np.random.default_rng(0)
x0 = wp.array(rng.standard_normal((N, 3)).astype(np.float32), dtype=wp.vec3, requires_grad=True)
velocity = wp.array(np.ones((N, 3), dtype=np.float32), dtype=wp.vec3, requires_grad=True)

for it in range(3):
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        rollout(x0, velocity, loss)
    tape.backward(loss)
    wp.launch(sgd, dim=N, inputs=[velocity, velocity.grad, 0.01])
    tape.zero()
    print("iteration", it, "loss", loss.numpy()[0])
