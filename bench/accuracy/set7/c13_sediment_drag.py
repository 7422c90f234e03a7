# correct: Sedimenting grains with gravity + quadratic drag; fit the drag coefficient to a measured settling depth.
"""Sedimenting grains with gravity + quadratic drag; fit the drag coefficient to a measured settling depth."""
import numpy as np
import warp as wp

from _particle_funcs_ok import apply_drag

N = 32
STEPS = 15
DT = 0.05


@wp.kernel
def drag_kernel(v: wp.array(dtype=wp.vec3), c: wp.array(dtype=float), dt: float, v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    apply_drag(v, v_out, i, c[0], dt)


@wp.kernel
def gravity_and_move(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), dt: float,
                     x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    vn = v[i] + wp.vec3(0.0, -9.81, 0.0) * dt
    v_out[i] = vn
    x_out[i] = x[i] + vn * dt


@wp.kernel
def depth_loss(x: wp.array(dtype=wp.vec3), target_depth: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i][1] - target_depth
    wp.atomic_add(loss, 0, d * d / float(N))


PARAMS0 = np.array([0.4], dtype=np.float32)


def evaluate(c_np):
    c = wp.array(c_np, dtype=float, requires_grad=True)
    rng = np.random.default_rng(1)
    x = wp.array(rng.uniform(-1, 1, (N, 3)), dtype=wp.vec3, requires_grad=True)
    v = wp.array(rng.normal(0, 0.5, (N, 3)), dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            x_new, v_mid, v_new = wp.empty_like(x), wp.empty_like(v), wp.empty_like(v)
            wp.launch(gravity_and_move, dim=N, inputs=[x, v, DT], outputs=[x_new, v_mid])
            wp.launch(drag_kernel, dim=N, inputs=[v_mid, c, DT], outputs=[v_new])
            x, v = x_new, v_new
        wp.launch(depth_loss, dim=N, inputs=[x, -4.0], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), c.grad.numpy().copy()


if __name__ == "__main__":
    print(evaluate(PARAMS0))
