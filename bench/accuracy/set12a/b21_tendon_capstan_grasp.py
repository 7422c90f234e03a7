import numpy as np
import warp as wp

R_PULLEY = wp.constant(0.012)
K_JOINT = wp.constant(0.35)
FINGERS = 3
PULLEYS = 5


@wp.kernel
def tip_tension(motor: wp.array(dtype=float), wrap: wp.array2d(dtype=float), mu: wp.array(dtype=float),
                n_pulleys: int, tension: wp.array(dtype=float)):
    i = wp.tid()
    T = motor[0] * (1.0 + 0.2 * float(i))
    for k in range(n_pulleys):  # expect: dynamic_loop
        T = T * wp.exp(-mu[0] * wrap[i, k])
    tension[i] = T


@wp.kernel
def finger_pose(tension: wp.array(dtype=float), goal: wp.array(dtype=wp.vec2), cost: wp.array(dtype=float)):
    i = wp.tid()
    flex = tension[i] * R_PULLEY / K_JOINT
    a1 = 0.6 * flex
    a2 = a1 + 0.4 * flex
    p = wp.vec2(0.05 * wp.cos(a1) + 0.035 * wp.cos(a2), 0.05 * wp.sin(a1) + 0.035 * wp.sin(a2))
    d = (p - goal[i]) * 100.0
    wp.atomic_add(cost, 0, wp.dot(d, d))


WRAP = np.array([[0.5, 0.8, 1.2, 0.6, 0.9], [0.4, 0.7, 1.0, 0.9, 0.5], [0.6, 0.6, 0.8, 1.1, 0.7]])
GOALS = np.array([[0.045, 0.06], [0.05, 0.055], [0.06, 0.04]])
PARAMS0 = np.array([60.0, 0.25])
FD_EPS = [1e-2, 1e-4]


def evaluate(p):
    motor = wp.array([p[0]], dtype=float, requires_grad=True)
    mu = wp.array([p[1]], dtype=float, requires_grad=True)
    tension = wp.zeros(FINGERS, dtype=float, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(tip_tension, dim=FINGERS, inputs=[motor, wp.array(WRAP, dtype=float), mu, PULLEYS], outputs=[tension])
        wp.launch(finger_pose, dim=FINGERS, inputs=[tension, wp.array(GOALS, dtype=wp.vec2)], outputs=[cost])
    tape.backward(cost)
    return float(cost.numpy()[0]), np.array([motor.grad.numpy()[0], mu.grad.numpy()[0]])


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("grasp cost", loss, "grad", g)
