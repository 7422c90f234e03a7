# correct: tendon-driven joints integrated with substeps inside the kernel; the substep count is a wp.constant, so the loop is unrolled and every substep is replayed in backward
import numpy as np
import warp as wp

FRAME_DT = wp.constant(0.25)
FRAMES = 6
N_SUB = wp.constant(8)


@wp.kernel
def tendon_frame(q: wp.array(dtype=wp.vec2), motor: wp.array(dtype=float), stiffness: wp.array(dtype=float),
                 frame: int, q_out: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    s = q[i]
    h = FRAME_DT / float(N_SUB)
    target = motor[0] * wp.sin(0.3 * float(frame) + float(i))
    for k in range(N_SUB):
        stretch = 0.05 * target - 0.05 * s[0]
        tension = stiffness[0] * wp.log(1.0 + wp.exp(stretch / 0.01)) * 0.01
        acc = 0.05 * tension - 9.81 * wp.sin(s[0]) - 0.4 * s[1]
        v = s[1] + h * acc
        s = wp.vec2(s[0] + h * v, v)
    q_out[i] = s


@wp.kernel
def pose_cost(q: wp.array(dtype=wp.vec2), goal: float, cost: wp.array(dtype=float)):
    i = wp.tid()
    d = q[i][0] - goal
    wp.atomic_add(cost, 0, d * d)


PARAMS0 = np.array([1.2, 400.0])
FD_EPS = [1e-3, 1e-1]


def evaluate(p):
    motor = wp.array([p[0]], dtype=float, requires_grad=True)
    stiffness = wp.array([p[1]], dtype=float, requires_grad=True)
    q = wp.array([[0.1, 0.0], [0.2, 0.0], [0.3, 0.0]], dtype=wp.vec2, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for f in range(FRAMES):
            q_new = wp.empty_like(q)
            wp.launch(tendon_frame, dim=3, inputs=[q, motor, stiffness, f], outputs=[q_new])
            q = q_new
            wp.launch(pose_cost, dim=3, inputs=[q, 0.4], outputs=[cost])
    tape.backward(cost)
    return float(cost.numpy()[0]), np.array([motor.grad.numpy()[0], stiffness.grad.numpy()[0]])


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("tendon pose cost", loss, "grad", g)
