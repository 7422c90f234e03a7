"""Calibrate a two-link crane's boom lengths from hook positions; the first link's transform comes
from a @wp.func and its x translation is then scaled in place for the boom's extension.

`t1[0, 2] = t1[0, 2] * EXTENSION` assigns a component that `link` already
computed from the boom length: Warp's adjoint of the second assignment also
passes the new component's adjoint to the old one, so the boom length gets a
gradient it never earned.
"""

import numpy as np
import warp as wp

N = 10
EXTENSION = 1.25
Q1 = np.linspace(0.1, 1.2, N).astype(np.float32)
Q2 = np.linspace(-0.5, 0.6, N).astype(np.float32)


@wp.func
def link(q: float, length: float):
    c = wp.cos(q)
    s = wp.sin(q)
    return wp.mat33(c, -s, length * c, s, c, length * s, 0.0, 0.0, 1.0)


@wp.kernel
def hook_position(boom: wp.array(dtype=float), q1: wp.array(dtype=float), q2: wp.array(dtype=float),
                  hook: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    t1 = link(q1[i], boom[0])
    t1[0, 2] = t1[0, 2] * EXTENSION  # expect: TW302
    t2 = link(q2[i], boom[1])
    h = (t1 * t2) * wp.vec3(0.0, 0.0, 1.0)
    hook[i] = wp.vec2(h[0], h[1])


@wp.kernel
def misfit(hook: wp.array(dtype=wp.vec2), obs: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = hook[i] - obs[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


if __name__ == "__main__":
    boom = wp.array([4.0, 2.5], dtype=float, requires_grad=True)
    obs = wp.array(np.stack([5.0 * np.cos(Q1), 5.0 * np.sin(Q1)], axis=1).astype(np.float32), dtype=wp.vec2)
    hook = wp.zeros(N, dtype=wp.vec2, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(hook_position, dim=N, inputs=[boom, wp.array(Q1, dtype=float), wp.array(Q2, dtype=float)],
                  outputs=[hook])
        wp.launch(misfit, dim=N, inputs=[hook, obs], outputs=[loss])
    tape.backward(loss)
    print("loss", loss.numpy()[0], "gradient", boom.grad.numpy())
