# correct: car MPC with warp.optim.SGD and momentum, one tape kept across iterations and reset() before each recording, which zeroes the control gradient
import numpy as np
import warp as wp
import warp.optim

from _car import car_step, lane_cost

T = 20
ITERS = 4
IDX = [1, 4, 9, 16, 25, 38]


@wp.kernel
def unpack_controls(u: wp.array(dtype=float), ctrl: wp.array2d(dtype=wp.vec2)):
    t = wp.tid()
    ctrl[t, 0] = wp.vec2(u[2 * t], 0.3 * wp.tanh(u[2 * t + 1]))


def rollout(u):
    init = np.zeros((T + 1, 1, 4))
    init[0, 0] = [0.0, 0.0, 0.0, 8.0]
    states = wp.array(init, dtype=wp.vec4, requires_grad=True)
    ctrl = wp.zeros((T, 1), dtype=wp.vec2, requires_grad=True)
    cost = wp.zeros(1, dtype=float, requires_grad=True)
    wp.launch(unpack_controls, dim=T, inputs=[u], outputs=[ctrl])
    for t in range(T):
        wp.launch(car_step, dim=1, inputs=[states, ctrl, t])
        wp.launch(lane_cost, dim=1, inputs=[states, t + 1, 1.5, 9.0], outputs=[cost])
    return cost


def optimise(iters):
    u = wp.array(np.tile([0.2, 0.1], T), dtype=float, requires_grad=True)
    opt = warp.optim.SGD([u], lr=0.002, momentum=0.5)
    tape = wp.Tape()
    consumed = None
    for it in range(iters):
        tape.reset()
        with tape:
            cost = rollout(u)
        tape.backward(cost)
        consumed = u.grad.numpy().copy()
        if it < iters - 1:
            opt.step([u.grad])
    return u.numpy().copy(), consumed, float(cost.numpy()[0])


def objective(u_np):
    return float(rollout(wp.array(u_np, dtype=float)).numpy()[0])


def verify():
    u_last, consumed, _ = optimise(ITERS)
    fd = []
    for k in IDX:
        e = np.zeros_like(u_last)
        e[k] = 1e-3
        fd.append((objective(u_last + e) - objective(u_last - e)) / 2e-3)
    return consumed[IDX], np.array(fd)


if __name__ == "__main__":
    _, g, c = optimise(ITERS)
    print("MPC cost", c, "|grad|", np.linalg.norm(g))
