import numpy as np
import warp as wp

from _quad import quad_step, target_cost

SEG = 30
N = 4
TARGET = (0.3, 0.1, 1.0)


def simulate(pos, vel, ctrl, steps):
    for _ in range(steps):
        p_new, v_new = wp.empty_like(pos), wp.empty_like(vel)
        wp.launch(quad_step, dim=N, inputs=[pos, vel, ctrl], outputs=[p_new, v_new])
        pos, vel = p_new, v_new
    return pos, vel


PARAMS0 = np.array([2.6, 0.06, 0.12])


def evaluate(p):
    ctrl = wp.array([wp.vec4(p[0], p[1], p[2], 0.0)], dtype=wp.vec4, requires_grad=True)
    start = np.zeros((N, 3))
    start[:, 2] = np.linspace(0.2, 0.5, N)
    pos0 = wp.array(start, dtype=wp.vec3, requires_grad=True)
    vel0 = wp.zeros(N, dtype=wp.vec3, requires_grad=True)
    tape1 = wp.Tape()
    with tape1:
        p_mid, v_mid = simulate(pos0, vel0, ctrl, SEG)
    p_cp = wp.clone(p_mid)
    v_cp = wp.clone(v_mid)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    tape2 = wp.Tape()
    with tape2:
        p_end, _ = simulate(p_cp, v_cp, ctrl, SEG)
        wp.launch(target_cost, dim=N, inputs=[p_end, wp.vec3(*TARGET)], outputs=[cost])
    tape2.backward(cost)
    tape1.backward(grads={p_mid: p_cp.grad})  # expect: seeding
    return float(cost.numpy()[0]), ctrl.grad.numpy()[0, :3].copy()


if __name__ == "__main__":
    loss, g = evaluate(PARAMS0)
    print("hover cost", loss, "grad", g)
