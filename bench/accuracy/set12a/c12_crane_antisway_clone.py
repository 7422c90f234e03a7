# correct: crane anti-sway gain tuning with @wp.struct states where the gain gradient is cloned right after tape.backward()
import numpy as np
import warp as wp

DT = wp.constant(0.02)
STEPS = 100
CABLE = wp.constant(1.5)


@wp.struct
class CraneState:
    trolley: wp.array(dtype=wp.vec2)
    swing: wp.array(dtype=wp.vec2)


@wp.kernel
def crane_step(s: CraneState, gains: wp.array(dtype=wp.vec3), goal: float, out: CraneState):
    i = wp.tid()
    x = s.trolley[i]
    th = s.swing[i]
    k = gains[0]
    u = k[0] * (goal - x[0]) - k[1] * x[1] + k[2] * th[1]
    alpha = -(9.81 * wp.sin(th[0]) + u * wp.cos(th[0])) / CABLE
    v = x[1] + DT * u
    w = th[1] + DT * alpha
    out.trolley[i] = wp.vec2(x[0] + DT * v, v)
    out.swing[i] = wp.vec2(th[0] + DT * w, w)


@wp.kernel
def sway_cost(s: CraneState, goal: float, cost: wp.array(dtype=float)):
    i = wp.tid()
    x = s.trolley[i]
    th = s.swing[i]
    wp.atomic_add(cost, 0, 0.01 * ((x[0] - goal) * (x[0] - goal) + 4.0 * th[0] * th[0] + th[1] * th[1]))


def new_state(n, requires_grad=True):
    s = CraneState()
    s.trolley = wp.zeros(n, dtype=wp.vec2, requires_grad=requires_grad)
    s.swing = wp.zeros(n, dtype=wp.vec2, requires_grad=requires_grad)
    return s


PARAMS0 = np.array([2.0, 2.5, 1.5])


def evaluate(p):
    gains = wp.array([wp.vec3(*p)], dtype=wp.vec3, requires_grad=True)
    s = new_state(2)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            nxt = new_state(2)
            wp.launch(crane_step, dim=2, inputs=[s, gains, 2.0], outputs=[nxt])
            wp.launch(sway_cost, dim=2, inputs=[nxt, 2.0], outputs=[cost])
            s = nxt
    tape.backward(cost)
    grad = wp.clone(gains.grad)
    return float(cost.numpy()[0]), grad.numpy()[0].copy()


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("sway cost", loss, "grad", g)
