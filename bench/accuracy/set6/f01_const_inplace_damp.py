# correct: Correct look-alike of b05: in-place damping by a constant (not differentiated) factor; we fit the force.
"""Correct look-alike of b05: in-place damping by a constant (not differentiated) factor; we fit the force."""
import numpy as np
import warp as wp

import _f01_dynamics as dyn

N = 32
STEPS = 4
DT = 0.1
DRAG = 0.9


@wp.kernel
def landing_error(x: wp.array(dtype=wp.vec2), goal: wp.vec2, out: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(out, 0, wp.length_sq(x[i] - goal))


def rollout(x0, v0, force):
    x, v = x0, v0
    for _ in range(STEPS):
        v_new = wp.empty_like(v)
        x_new = wp.empty_like(x)
        wp.launch(dyn.accelerate, dim=N, inputs=[v, force, DT], outputs=[v_new])
        wp.launch(dyn.apply_drag, dim=N, inputs=[v_new, DRAG])
        wp.launch(dyn.drift, dim=N, inputs=[x, v_new, DT], outputs=[x_new])
        x, v = x_new, v_new
    return x


def main():
    rng = np.random.default_rng(0)
    x0 = wp.array(rng.normal(size=(N, 2)).astype(np.float32), dtype=wp.vec2, requires_grad=True)
    v0 = wp.array(np.tile([1.0, 2.0], (N, 1)).astype(np.float32), dtype=wp.vec2, requires_grad=True)
    force = wp.array(np.tile([0.0, -9.8], (N, 1)).astype(np.float32), dtype=wp.vec2, requires_grad=True)
    err = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        x = rollout(x0, v0, force)
        wp.launch(landing_error, dim=N, inputs=[x, wp.vec2(0.5, 0.0)], outputs=[err])
    tape.backward(err)
    print("error", err.numpy()[0], "d/dforce[0]", force.grad.numpy()[0], "d/dv0[0]", v0.grad.numpy()[0])
    return force.grad.numpy(), v0.grad.numpy()


if __name__ == "__main__":
    main()
