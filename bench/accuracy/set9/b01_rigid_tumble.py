"""Tumbling rigid bodies: gradient of the final heading error w.r.t. the initial spin."""

import numpy as np
import warp as wp

from _rigid import BodyState, heading_loss, init_bodies, integrate_bodies, make_state

STEPS = 24
DT = 0.02
DAMPING = 0.05
INERTIAS = [(1.0, 2.0, 3.0), (0.5, 1.5, 1.2), (2.0, 1.0, 0.7)]
TARGETS = [(0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (0.6, 0.8, 0.0)]

PARAMS0 = np.array([0.4, 2.5, -1.2])


def simulate(w0):
    n = len(INERTIAS)
    inertia = wp.array([np.diag(I) for I in INERTIAS], dtype=wp.mat33)
    target = wp.array(TARGETS, dtype=wp.vec3)
    loss = wp.zeros(1, dtype=float, requires_grad=True)

    cur = make_state(n)
    nxt = make_state(n)
    tape = wp.Tape()
    with tape:
        wp.launch(init_bodies, dim=n, inputs=[w0], outputs=[cur])
        for _ in range(STEPS):
            wp.launch(integrate_bodies, dim=n, inputs=[cur, inertia, DAMPING, DT], outputs=[nxt])
            cur, nxt = nxt, cur  # expect: overwrite
        wp.launch(heading_loss, dim=n, inputs=[cur, wp.vec3(1.0, 0.0, 0.0), target], outputs=[loss])
    return tape, loss, cur


def evaluate(p):
    w0 = wp.array([p.astype(np.float32)], dtype=wp.vec3, requires_grad=True)
    tape, loss, _ = simulate(w0)
    tape.backward(loss)
    return float(loss.numpy()[0]), w0.grad.numpy()[0].astype(np.float64)


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"heading loss {loss:.5f}  d/dw0 {grad}")
