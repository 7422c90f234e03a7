import numpy as np
import warp as wp

from _opspace import MG, task_force, tip

DT = wp.constant(0.01)
STEPS = 50


@wp.kernel
def arm_step(q: wp.array(dtype=wp.vec2), qd: wp.array(dtype=wp.vec2), goal: wp.array(dtype=wp.vec2),
             q_out: wp.array(dtype=wp.vec2), qd_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    s = q[i]
    tau = task_force(s, qd[i], goal[0], 40.0, 6.0)
    grav = wp.vec2(MG * 0.6 * wp.cos(s[0]), 0.0)
    acc = tau - grav - 0.5 * qd[i]
    v = qd[i] + DT * acc
    qd_out[i] = v
    q_out[i] = s + DT * v


@wp.kernel
def reach_error(q: wp.array(dtype=wp.vec2), target: wp.vec2, cost: wp.array(dtype=float)):
    i = wp.tid()
    d = tip(q[i]) - target
    wp.atomic_add(cost, 0, wp.dot(d, d))


PARAMS0 = np.array([0.5, 0.6])


def evaluate(p):
    goal = wp.array([wp.vec2(p[0], p[1])], dtype=wp.vec2, requires_grad=True)
    q = wp.array([[0.3, 0.9], [0.5, 0.4], [0.1, 1.2]], dtype=wp.vec2, requires_grad=True)
    qd = wp.zeros(3, dtype=wp.vec2, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            q1, qd1 = wp.empty_like(q), wp.empty_like(qd)
            wp.launch(arm_step, dim=3, inputs=[q, qd, goal], outputs=[q1, qd1])
            q, qd = q1, qd1
        wp.launch(reach_error, dim=3, inputs=[q, wp.vec2(0.45, 0.7)], outputs=[cost])
    tape.backward(cost)
    return float(cost.numpy()[0]), goal.grad.numpy()[0].copy()


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("reach error", loss, "grad", g)
