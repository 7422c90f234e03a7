"""An inverse-distance potential launched from a method; one particle sits at the origin."""

import numpy as np
import warp as wp


@wp.kernel
def potential(x: wp.array(dtype=float), q: wp.array(dtype=float), e: wp.array(dtype=float)):
    i = wp.tid()
    s = x[i] * x[i]
    inv = q[0] / s  # expect: TW403
    wp.atomic_add(e, 0, wp.min(inv, 100.0))


class Field:
    def __init__(self):
        self.x = wp.array(np.array([0.0, 1.0, 2.0], dtype=np.float32), requires_grad=True)
        self.q = wp.array([1.0], dtype=float, requires_grad=True)

    def energy(self, e):
        wp.launch(potential, dim=3, inputs=[self.x, self.q], outputs=[e])


field = Field()
e = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    field.energy(e)
tape.backward(e)
print("d e / d q", field.q.grad.numpy(), "d e / d x", field.x.grad.numpy())
