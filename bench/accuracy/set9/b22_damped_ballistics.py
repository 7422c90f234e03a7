"""System identification for a damped projectile: gradient of the landing-point error w.r.t. the
per-step velocity retention factor and the launch velocity."""

import numpy as np
import warp as wp

STEPS = 20
DT = 0.03
OBSERVED = wp.vec3(1.6, 0.25, 0.4)
PARAMS0 = np.array([0.8, 4.0, 4.0, 0.8])


@wp.kernel
def damp(v_in: wp.array(dtype=wp.vec3), keep: wp.array(dtype=float), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v_out[i] = v_in[i]
    v_out[i] *= keep[0]  # expect: inplace_op


@wp.kernel
def ballistic(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), dt: float, x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    v1 = v[i] + wp.vec3(0.0, -9.81, 0.0) * dt
    v_out[i] = v1
    x_out[i] = x[i] + v1 * dt


@wp.kernel
def landing_error(x: wp.array(dtype=wp.vec3), observed: wp.vec3, loss: wp.array(dtype=float)):
    d = x[0] - observed
    loss[0] = wp.dot(d, d)


def evaluate(p):
    keep = wp.array(p[:1].astype(np.float32), dtype=float, requires_grad=True)
    v0 = wp.array([p[1:].astype(np.float32)], dtype=wp.vec3, requires_grad=True)
    x = wp.zeros(1, dtype=wp.vec3, requires_grad=True)
    v = v0
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            vd = wp.empty_like(v)
            wp.launch(damp, dim=1, inputs=[v, keep], outputs=[vd])
            x1, v1 = wp.empty_like(x), wp.empty_like(v)
            wp.launch(ballistic, dim=1, inputs=[x, vd, DT], outputs=[x1, v1])
            x, v = x1, v1
        wp.launch(landing_error, dim=1, inputs=[x, OBSERVED], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), np.concatenate([keep.grad.numpy(), v0.grad.numpy()[0]]).astype(np.float64)


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"landing error {loss:.5f}  d/dkeep {grad[0]:.4f}  d/dv0 {np.round(grad[1:], 4)}")
