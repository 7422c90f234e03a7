"""Find the initial push (horizontal velocity) of an elastic pendulum so that
the bob passes a target point at the end of a long horizon.

To bound memory the horizon is split in two segments: the forward pass runs
untaped and keeps a checkpoint, the second segment is re-recorded from the
checkpoint and differentiated first, then the first segment is re-recorded
and seeded with the adjoints that arrive at the checkpoint.
"""
import numpy as np
import warp as wp

DT = 0.005
SEG_STEPS = 40
ANCHOR = wp.constant(wp.vec3(0.0, 1.0, 0.0))
REST = 0.6
K_SPRING = 60.0
DRAG = 0.3


@wp.kernel
def set_push(push: wp.array(dtype=float), v: wp.array(dtype=wp.vec3)):
    v[0] = wp.vec3(push[0], 0.0, push[1])


@wp.kernel
def pendulum_step(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), dt: float,
                  x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    d = x[0] - ANCHOR
    l = wp.length(d)
    f = -K_SPRING * (l - REST) * d / l - DRAG * wp.length(v[0]) * v[0] + wp.vec3(0.0, -9.81, 0.0)
    v1 = v[0] + f * dt
    v_out[0] = v1
    x_out[0] = x[0] + v1 * dt


@wp.kernel
def miss_distance(x: wp.array(dtype=wp.vec3), target: wp.vec3, loss: wp.array(dtype=float)):
    d = x[0] - target
    loss[0] = wp.dot(d, d)


def run_segment(x, v, steps):
    for _ in range(steps):
        x1, v1 = wp.empty_like(x), wp.empty_like(v)
        wp.launch(pendulum_step, dim=1, inputs=[x, v, DT], outputs=[x1, v1])
        x, v = x1, v1
    return x, v


X_START = np.array([[0.35, 0.45, 0.0]], dtype=np.float32)
TARGET = wp.vec3(-0.2, 0.5, 0.3)


def evaluate(p):
    push = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)

    # 1) untaped forward to the checkpoint
    x0 = wp.array(X_START, dtype=wp.vec3, requires_grad=True)
    v0 = wp.zeros(1, dtype=wp.vec3, requires_grad=True)
    wp.launch(set_push, dim=1, inputs=[push], outputs=[v0])
    x_ck, v_ck = run_segment(x0, v0, SEG_STEPS)

    # 2) second segment from the checkpoint, differentiated first
    x_cp = wp.clone(x_ck, requires_grad=True)
    v_cp = wp.clone(v_ck, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape2 = wp.Tape()
    with tape2:
        x_end, _ = run_segment(x_cp, v_cp, SEG_STEPS)
        wp.launch(miss_distance, dim=1, inputs=[x_end, TARGET], outputs=[loss])
    tape2.backward(loss)

    # 3) first segment re-recorded and seeded with the checkpoint adjoints
    x0 = wp.array(X_START, dtype=wp.vec3, requires_grad=True)
    v0 = wp.zeros(1, dtype=wp.vec3, requires_grad=True)
    tape1 = wp.Tape()
    with tape1:
        wp.launch(set_push, dim=1, inputs=[push], outputs=[v0])
        x_mid, v_mid = run_segment(x0, v0, SEG_STEPS)
    tape1.backward(grads={x_mid: x_cp.grad})  # expect: seeding
    return float(loss.numpy()[0]), push.grad.numpy().copy()


PARAMS0 = np.array([0.8, 1.2])
FD_EPS = 1e-3

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("miss", l, "d miss / d push", g)
