# correct: whole trajectory lives in one 2-D array; each step reads row t and writes row t+1 through views, the loss reads the slice xs[1:]
"""Projectiles with quadratic drag: fit launch velocities so the arcs pass near waypoints."""

from typing import Any

import numpy as np
import warp as wp

N = 3
STEPS = 30
DT = 0.02
DRAG = 0.35
PARAMS0 = np.array([2.0, 3.0, 2.5, 2.0, 1.5, 3.5])


@wp.func
def sq_norm(v: Any):
    return wp.dot(v, v)


@wp.kernel
def drag_step(
    x: wp.array(dtype=wp.vec2),
    v: wp.array(dtype=wp.vec2),
    drag: float,
    dt: float,
    x_next: wp.array(dtype=wp.vec2),
    v_next: wp.array(dtype=wp.vec2),
):
    i = wp.tid()
    vi = v[i]
    a = wp.vec2(0.0, -9.81) - drag * wp.length(vi) * vi
    v1 = vi + a * dt
    v_next[i] = v1
    x_next[i] = x[i] + v1 * dt


@wp.kernel
def waypoint_loss(
    xs: wp.array2d(dtype=wp.vec2),
    waypoints: wp.array(dtype=wp.vec2),
    sigma: float,
    loss: wp.array(dtype=float),
):
    t, i = wp.tid()
    d = xs[t, i] - waypoints[i]
    # soft-min style attraction: reward passing close to the waypoint at any time
    wp.atomic_add(loss, 0, -wp.exp(-sq_norm(d) / (sigma * sigma)))


def rollout(v0, xs, vs):
    wp.copy(vs[0], v0)
    for t in range(STEPS):
        wp.launch(drag_step, dim=N, inputs=[xs[t], vs[t], DRAG, DT], outputs=[xs[t + 1], vs[t + 1]])


def evaluate(p):
    xs = wp.zeros((STEPS + 1, N), dtype=wp.vec2, requires_grad=True)
    vs = wp.zeros((STEPS + 1, N), dtype=wp.vec2, requires_grad=True)
    v0 = wp.array(p.reshape(N, 2).astype(np.float32), dtype=wp.vec2, requires_grad=True)
    waypoints = wp.array([(0.8, 0.5), (1.0, 0.4), (0.5, 0.9)], dtype=wp.vec2)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        rollout(v0, xs, vs)
        wp.launch(waypoint_loss, dim=(STEPS, N), inputs=[xs[1:], waypoints, 0.3], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), v0.grad.numpy().ravel().astype(np.float64)


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"waypoint score {loss:.5f}  d/dv0 {np.round(grad, 4)}")
