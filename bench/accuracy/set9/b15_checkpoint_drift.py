"""Particles drifting in a wind with quadratic drag. The rollout is differentiated in two checkpointed
segments (the second is taped first, then the first is re-recorded and seeded from it)."""

import numpy as np
import warp as wp

N = 3
SEG_STEPS = 15
DT = 0.02
TARGET = np.array([[1.0, 0.4, 0.0], [0.8, 0.9, 0.2], [1.3, 0.2, -0.1]], dtype=np.float32)
X0 = np.array([[0.0, 0.0, 0.0], [0.1, 0.5, 0.0], [0.3, -0.2, 0.1]], dtype=np.float32)
V0 = np.array([[1.0, 1.5, 0.0], [0.5, 2.0, 0.3], [1.5, 1.0, -0.2]], dtype=np.float32)
PARAMS0 = np.array([2.0, -0.5, 0.3])


@wp.kernel
def drift(
    x: wp.array(dtype=wp.vec3),
    v: wp.array(dtype=wp.vec3),
    wind: wp.array(dtype=wp.vec3),
    drag: float,
    dt: float,
    x_out: wp.array(dtype=wp.vec3),
    v_out: wp.array(dtype=wp.vec3),
):
    i = wp.tid()
    rel = wind[0] - v[i]
    a = drag * wp.length(rel) * rel + wp.vec3(0.0, -9.81, 0.0)
    v1 = v[i] + a * dt
    v_out[i] = v1
    x_out[i] = x[i] + v1 * dt


@wp.kernel
def target_error(x: wp.array(dtype=wp.vec3), target: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def segment(x, v, wind, steps):
    for _ in range(steps):
        x1 = wp.empty_like(x)
        v1 = wp.empty_like(v)
        wp.launch(drift, dim=N, inputs=[x, v, wind, 0.4, DT], outputs=[x1, v1])
        x, v = x1, v1
    return x, v


def evaluate(p):
    wind = wp.array([p.astype(np.float32)], dtype=wp.vec3, requires_grad=True)
    x0 = wp.array(X0, dtype=wp.vec3, requires_grad=True)
    v0 = wp.array(V0, dtype=wp.vec3, requires_grad=True)
    target = wp.array(TARGET, dtype=wp.vec3)
    loss = wp.zeros(1, dtype=float, requires_grad=True)

    # forward pass of the first segment without a tape: only its end state is kept
    x_ck, v_ck = segment(x0, v0, wind, SEG_STEPS)

    # second segment, taped and differentiated first
    x_cp = wp.clone(x_ck, requires_grad=True)
    v_cp = wp.clone(v_ck, requires_grad=True)
    tape2 = wp.Tape()
    with tape2:
        x_end, _ = segment(x_cp, v_cp, wind, SEG_STEPS)
        wp.launch(target_error, dim=N, inputs=[x_end, target], outputs=[loss])
    tape2.backward(loss)

    # first segment recomputed on its own tape and seeded with the adjoint of the checkpoint
    tape1 = wp.Tape()
    with tape1:
        x_mid, v_mid = segment(x0, v0, wind, SEG_STEPS)
    tape1.backward(grads={x_mid: x_cp.grad})  # expect: seeding
    return float(loss.numpy()[0]), wind.grad.numpy()[0].astype(np.float64)


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"target error {loss:.5f}  d/dwind {grad}")
