"""Estimate a drag factor from where a swarm of particles lands."""
import numpy as np
import warp as wp

import _b05_dynamics as dyn

N = 32
STEPS = 4
DT = 0.1


@wp.kernel
def landing_error(x: wp.array(dtype=wp.vec2), goal: wp.vec2, out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, wp.length_sq(x[i] - goal))


def rollout(x0, v0, force, drag):
    x, v = x0, v0
    for _ in range(STEPS):
        v_new = wp.empty_like(v)
        x_new = wp.empty_like(x)
        wp.launch(dyn.accelerate, dim=N, inputs=[v, force, DT], outputs=[v_new])
        wp.launch(dyn.apply_drag, dim=N, inputs=[v_new, drag])
        wp.launch(dyn.drift, dim=N, inputs=[x, v_new, DT], outputs=[x_new])
        x, v = x_new, v_new
    return x


def main():
    rng = np.random.default_rng(0)
    x0 = wp.array(rng.normal(size=(N, 2)).astype(np.float32), dtype=wp.vec2, requires_grad=True)
    v0 = wp.array(np.tile([1.0, 2.0], (N, 1)).astype(np.float32), dtype=wp.vec2, requires_grad=True)
    force = wp.array(np.tile([0.0, -9.8], (N, 1)).astype(np.float32), dtype=wp.vec2, requires_grad=True)
    drag = wp.array([0.9], dtype=float, requires_grad=True)
    err = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        x = rollout(x0, v0, force, drag)
        wp.launch(landing_error, dim=N, inputs=[x, wp.vec2(0.5, 0.0)], outputs=[err])
    tape.backward(err)
    print("error", err.numpy()[0], "d/ddrag", drag.grad.numpy()[0])
    return drag.grad.numpy()[0]


if __name__ == "__main__":
    main()
