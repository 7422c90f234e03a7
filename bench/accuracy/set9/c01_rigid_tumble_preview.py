# correct: rigid-body rollout that rebinds to a freshly allocated state every step; the old states are only reused after backward()
"""Tumbling rigid bodies: gradient of the final heading error w.r.t. the initial spin."""

import numpy as np
import warp as wp

from _rigid import heading_loss, init_bodies, integrate_bodies, make_state

STEPS = 24
DT = 0.02
DAMPING = 0.05
INERTIAS = [(1.0, 2.0, 3.0), (0.5, 1.5, 1.2), (2.0, 1.0, 0.7)]
TARGETS = [(0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (0.6, 0.8, 0.0)]

PARAMS0 = np.array([0.4, 2.5, -1.2])


def simulate(w0, inertia, target, loss):
    n = inertia.shape[0]
    history = []
    cur = make_state(n)
    tape = wp.Tape()
    with tape:
        wp.launch(init_bodies, dim=n, inputs=[w0], outputs=[cur])
        for _ in range(STEPS):
            nxt = make_state(n)
            wp.launch(integrate_bodies, dim=n, inputs=[cur, inertia, DAMPING, DT], outputs=[nxt])
            history.append(cur)
            cur, nxt = nxt, None
        wp.launch(heading_loss, dim=n, inputs=[cur, wp.vec3(1.0, 0.0, 0.0), target], outputs=[loss])
    return tape, cur, history


def evaluate(p):
    n = len(INERTIAS)
    inertia = wp.array([np.diag(I) for I in INERTIAS], dtype=wp.mat33)
    target = wp.array(TARGETS, dtype=wp.vec3)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    w0 = wp.array([p.astype(np.float32)], dtype=wp.vec3, requires_grad=True)
    tape, final, history = simulate(w0, inertia, target, loss)
    tape.backward(loss)
    grad = w0.grad.numpy()[0].astype(np.float64)

    # after the backward pass the recorded states are free: reuse two of them as
    # ping-pong buffers for a longer, untaped preview of the motion
    a, b = history[0], history[1]
    wp.copy(a.q, final.q)
    wp.copy(a.w, final.w)
    for _ in range(50):
        wp.launch(integrate_bodies, dim=n, inputs=[a, inertia, DAMPING, DT], outputs=[b])
        a, b = b, a
    return float(loss.numpy()[0]), grad


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"heading loss {loss:.5f}  d/dw0 {grad}")
