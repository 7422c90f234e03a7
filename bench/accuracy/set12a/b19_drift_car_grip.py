import numpy as np
import warp as wp

DT = wp.constant(0.05)
STEPS = 30
GRIP = wp.constant(0.6)


@wp.kernel
def slip_step(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), yaw: wp.array(dtype=float),
              cmd: wp.array(dtype=wp.vec2), x_out: wp.array(dtype=wp.vec3), v_out: wp.array(dtype=wp.vec3),
              yaw_out: wp.array(dtype=float)):
    i = wp.tid()
    h = yaw[i] + DT * cmd[0][1]
    q = wp.quat_from_axis_angle(wp.vec3(0.0, 0.0, 1.0), h)
    vb = wp.quat_rotate_inv(q, v[i])
    vb[1] = vb[1] * GRIP  # expect: component_reassign
    vb = vb + DT * wp.vec3(cmd[0][0] - 0.05 * vb[0] * vb[0], 0.0, 0.0)
    vw = wp.quat_rotate(q, vb)
    v_out[i] = vw
    x_out[i] = x[i] + DT * vw
    yaw_out[i] = h


@wp.kernel
def parking_cost(x: wp.array(dtype=wp.vec3), yaw: wp.array(dtype=float), goal: wp.vec3, cost: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - goal
    wp.atomic_add(cost, 0, wp.dot(d, d) + (yaw[i] - 1.2) * (yaw[i] - 1.2))


PARAMS0 = np.array([1.5, 0.9])


def evaluate(p):
    cmd = wp.array([wp.vec2(p[0], p[1])], dtype=wp.vec2, requires_grad=True)
    x = wp.zeros(2, dtype=wp.vec3, requires_grad=True)
    v = wp.array([[4.0, 0.0, 0.0], [5.0, 0.5, 0.0]], dtype=wp.vec3, requires_grad=True)
    yaw = wp.zeros(2, dtype=float, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            x1, v1, y1 = wp.empty_like(x), wp.empty_like(v), wp.empty_like(yaw)
            wp.launch(slip_step, dim=2, inputs=[x, v, yaw, cmd], outputs=[x1, v1, y1])
            x, v, yaw = x1, v1, y1
        wp.launch(parking_cost, dim=2, inputs=[x, yaw, wp.vec3(6.0, 4.0, 0.0)], outputs=[cost])
    tape.backward(cost)
    return float(cost.numpy()[0]), cmd.grad.numpy()[0].copy()


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("parking cost", loss, "grad", g)
