"""Train a saturated tracking gain that moves 2D point masses along straight lines from random starts to a goal."""
import numpy as np
import warp as wp

HORIZON = 16
DT = 0.1
LR = 0.05
ITERS = 4


@wp.kernel
def control_step(
    x: wp.array(dtype=wp.vec2),
    v: wp.array(dtype=wp.vec2),
    x_start: wp.array(dtype=wp.vec2),
    gain: wp.array(dtype=float),
    goal: wp.vec2,
    alpha: float,
    dt: float,
    x_out: wp.array(dtype=wp.vec2),
    v_out: wp.array(dtype=wp.vec2),
):
    i = wp.tid()
    ref = x_start[i] + alpha * (goal - x_start[i])
    e = ref - x[i]
    u = wp.vec2(wp.tanh(gain[0] * e[0]), wp.tanh(gain[0] * e[1])) - gain[1] * v[i]
    vn = v[i] + dt * u
    v_out[i] = vn
    x_out[i] = x[i] + dt * vn


@wp.kernel
def reach_cost(x: wp.array(dtype=wp.vec2), goal: wp.vec2, cost: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - goal
    wp.atomic_add(cost, 0, wp.dot(d, d) / float(x.shape[0]))


@wp.kernel
def sgd(p: wp.array(dtype=float), g: wp.array(dtype=float), lr: float):
    i = wp.tid()
    p[i] = p[i] - lr * g[i]


n_envs = 8
rng = np.random.default_rng(5)
goal = wp.vec2(1.0, 0.5)
gain = wp.array([0.5, 0.3], dtype=float, requires_grad=True)

start = wp.array(rng.uniform(-1.0, 1.0, (n_envs, 2)).astype(np.float32), dtype=wp.vec2, requires_grad=True)
xs = [start] + [wp.zeros(n_envs, dtype=wp.vec2, requires_grad=True) for _ in range(HORIZON)]
vs = [wp.zeros(n_envs, dtype=wp.vec2, requires_grad=True) for _ in range(HORIZON + 1)]
cost = wp.zeros(1, dtype=float, requires_grad=True)

log = []
tape = wp.Tape()
for it in range(ITERS):
    start_np = start.numpy().copy()
    gain_np = gain.numpy().copy()
    cost.zero_()
    with tape:
        for t in range(HORIZON):
            wp.launch(control_step, dim=n_envs, inputs=[xs[t], vs[t], start, gain, goal, float(t + 1) / float(HORIZON), DT], outputs=[xs[t + 1], vs[t + 1]])
        wp.launch(reach_cost, dim=n_envs, inputs=[xs[HORIZON], goal], outputs=[cost])

    # draw the next batch of start states while this one is still fresh
    start.assign(rng.uniform(-1.0, 1.0, (n_envs, 2)).astype(np.float32))  # expect: untaped_write

    tape.backward(cost)
    log.append((start_np, gain_np, float(cost.numpy()[0]), gain.grad.numpy().copy()))
    print(f"iter {it} cost {log[-1][2]:.5f} grad {log[-1][3]}")
    wp.launch(sgd, dim=2, inputs=[gain, gain.grad, LR])
    tape.reset()
