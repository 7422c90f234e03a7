"""A correct program with a stochastic forward pass.

Each run perturbs the initial positions with fresh (unseeded) noise, so two
runs of the script give different losses.  The FD harness pins every
random draw, so each evaluation replays the same noise, and the check
passes: the gradient is right.
"""

import numpy as np
import warp as wp

N = 16


@wp.kernel
def fall(x: wp.array(dtype=wp.vec3), g: wp.array(dtype=float), t: float, x_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x_out[i] = x[i] + wp.vec3(0.0, -0.5 * g[0] * t * t, 0.0)


@wp.kernel
def spread(x: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    p = x[i]
    wp.atomic_add(loss, 0, wp.sin(p[0]) * p[1] * p[1])


rng = np.random.default_rng()  # unseeded on purpose
noise = rng.normal(scale=0.1, size=(N, 3)).astype(np.float32)
x0 = wp.array(np.ones((N, 3), dtype=np.float32) + noise, dtype=wp.vec3, requires_grad=True)
gravity = wp.array([9.81], dtype=float, requires_grad=True)  # expect: TW400
x1 = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)

tape = wp.Tape()
with tape:
    wp.launch(fall, dim=N, inputs=[x0, gravity, 0.3], outputs=[x1])
    wp.launch(spread, dim=N, inputs=[x1], outputs=[loss])
tape.backward(loss)  # backward
print("loss", loss.numpy()[0], "d loss / d gravity", gravity.grad.numpy()[0])
