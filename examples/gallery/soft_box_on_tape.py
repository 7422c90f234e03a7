"""Bug: a soft box squashes each state of the taped rollout in place; the adjoint of tanh then sees the
squashed value, not the one it squashed (the TW104 sits on the statement in _constraints)."""

import numpy as np
import warp as wp

from _constraints import squash_box

STEPS = 8


@wp.kernel
def drift(x: wp.array(dtype=float), v: wp.array(dtype=float), dt: float, x_next: wp.array(dtype=float)):
    i = wp.tid()
    x_next[i] = x[i] + v[i] * dt


@wp.kernel
def spread(x: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


def rollout(x0, v, target, tape):
    states = [x0] + [wp.zeros_like(x0, requires_grad=True) for _ in range(STEPS)]
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    with tape:
        for s in range(STEPS):
            wp.launch(drift, dim=x0.shape[0], inputs=[states[s], v, 0.1], outputs=[states[s + 1]])
            wp.launch(squash_box, dim=x0.shape[0], inputs=[states[s + 1], 0.3])
        wp.launch(spread, dim=x0.shape[0], inputs=[states[-1], target], outputs=[loss])
    return loss


x0 = wp.array(np.linspace(-0.9, 0.9, 5, dtype=np.float32), requires_grad=True)
v = wp.array(np.full(5, 0.8, dtype=np.float32), requires_grad=True)
target = wp.array(np.zeros(5, dtype=np.float32))
tape = wp.Tape()
loss = rollout(x0, v, target, tape)
tape.backward(loss)
print("loss", loss.numpy()[0], "dL/dv", v.grad.numpy())
eps = 1e-2
for k in range(2):
    shifted = []
    for sign in (1.0, -1.0):
        vv = v.numpy().copy()
        vv[k] += sign * eps
        shifted.append(rollout(x0, wp.array(vv, requires_grad=True), target, wp.Tape()).numpy()[0])
    print("finite difference dL/dv[%d]" % k, (shifted[0] - shifted[1]) / (2 * eps))
