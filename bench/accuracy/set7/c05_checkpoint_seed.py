# correct: Projectile with quadratic drag, differentiated in two checkpointed segments to save memory.
"""Projectile with quadratic drag, differentiated in two checkpointed segments to save memory."""
import numpy as np
import warp as wp

N = 8
STEPS = 20
DT = 0.02


@wp.kernel
def step(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), drag: wp.array(dtype=float),
         x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    vi = v[i]
    a = wp.vec3(0.0, -9.81, 0.0) - drag[0] * wp.length(vi) * vi
    v_out[i] = vi + a * DT
    x_out[i] = x[i] + (vi + a * DT) * DT


@wp.kernel
def landing_error(x: wp.array(dtype=wp.vec3), target: wp.vec3, loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target
    wp.atomic_add(loss, 0, wp.dot(d, d))


def rollout(x, v, drag, n):
    xs, vs = [x], [v]
    for _ in range(n):
        xs.append(wp.empty_like(x))
        vs.append(wp.empty_like(v))
        wp.launch(step, dim=N, inputs=[xs[-2], vs[-2], drag], outputs=[xs[-1], vs[-1]])
    return xs[-1], vs[-1]


def evaluate(drag_np):
    drag = wp.array(drag_np, dtype=float, requires_grad=True)
    ang = np.linspace(0.3, 1.2, N)
    x0 = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    v0 = wp.array(np.stack([8 * np.cos(ang), 8 * np.sin(ang), np.zeros(N)], 1), dtype=wp.vec3, requires_grad=True)
    tape1 = wp.Tape()
    with tape1:  # first half
        x_mid, v_mid = rollout(x0, v0, drag, STEPS // 2)
    x_cp = wp.clone(x_mid, requires_grad=True)  # checkpoint: second half starts from copies
    v_cp = wp.clone(v_mid, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape2 = wp.Tape()
    with tape2:
        x_end, _ = rollout(x_cp, v_cp, drag, STEPS // 2)
        wp.launch(landing_error, dim=N, inputs=[x_end, wp.vec3(4.0, 0.0, 0.0)], outputs=[loss])
    tape2.backward(loss)
    # carry the adjoints of the checkpointed state into the first segment
    x_mid.grad.assign(x_cp.grad)
    v_mid.grad.assign(v_cp.grad)
    tape1.backward()
    return float(loss.numpy()[0]), drag.grad.numpy().copy()


PARAMS0 = np.array([0.05], dtype=np.float32)


def main():
    l, g = evaluate(PARAMS0)
    print("loss", l, "dL/ddrag", g)


if __name__ == "__main__":
    main()
