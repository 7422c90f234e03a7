# correct: one tape per episode with gradients summed, but episodes are independent (no state carried between them)
import numpy as np
import warp as wp

STEPS = 6
DT = 0.1


@wp.kernel
def arm_step(q: wp.array(dtype=wp.vec2), gains: wp.array(dtype=wp.float32), goal: wp.vec2, q_out: wp.array(dtype=wp.vec2)):
    s = q[0]
    err = goal - s
    u = wp.vec2(gains[0] * wp.tanh(err[0]), gains[1] * wp.tanh(err[1]))
    q_out[0] = s + DT * (u - 0.2 * wp.vec2(wp.sin(s[0]), wp.sin(s[1])))


@wp.kernel
def reach_cost(q: wp.array(dtype=wp.vec2), goal: wp.vec2, cost: wp.array(dtype=wp.float32)):
    d = q[0] - goal
    wp.atomic_add(cost, 0, wp.dot(d, d))


GOALS = [(0.8, -0.4), (0.2, 0.9), (-0.5, 0.3)]


def summed_grad(gains_np):
    gains = wp.array(gains_np, dtype=wp.float32, requires_grad=True)
    total = 0.0
    grad = np.zeros(2)
    for gx, gy in GOALS:
        goal = wp.vec2(gx, gy)
        qs = [wp.zeros(1, dtype=wp.vec2, requires_grad=True) for _ in range(STEPS + 1)]
        cost = wp.zeros(1, dtype=wp.float32, requires_grad=True)
        tape = wp.Tape()
        with tape:
            for t in range(STEPS):
                wp.launch(arm_step, dim=1, inputs=[qs[t], gains, goal], outputs=[qs[t + 1]])
            wp.launch(reach_cost, dim=1, inputs=[qs[STEPS], goal], outputs=[cost])
        tape.backward(cost)
        total += float(cost.numpy()[0])
        grad += gains.grad.numpy()
        tape.zero()
    return total, grad


def main():
    g = np.array([1.0, 1.0], dtype=np.float32)
    for it in range(6):
        c, dg = summed_grad(g)
        print(f"iter {it}: gains={g} cost={c:.5f} grad={dg}")
        g = (g - 0.5 * dg).astype(np.float32)


if __name__ == "__main__":
    main()
