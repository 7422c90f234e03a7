# correct: Two-link arm IK with an obstacle: combine task and clearance gradients by projection (PCGrad-style).
"""Two-link arm IK with an obstacle: combine task and clearance gradients by projection (PCGrad-style)."""
import numpy as np
import warp as wp

L1, L2 = 1.0, 0.8


@wp.func
def end_effector(q0: float, q1: float):
    return wp.vec2(L1 * wp.cos(q0) + L2 * wp.cos(q0 + q1), L1 * wp.sin(q0) + L2 * wp.sin(q0 + q1))


@wp.kernel
def reach_cost(q: wp.array(dtype=float), target: wp.vec2, cost: wp.array(dtype=float)):
    d = end_effector(q[0], q[1]) - target
    cost[0] = wp.dot(d, d)


@wp.kernel
def clearance_cost(q: wp.array(dtype=float), obstacle: wp.vec2, radius: float, cost: wp.array(dtype=float)):
    elbow = wp.vec2(L1 * wp.cos(q[0]), L1 * wp.sin(q[0]))
    mid = 0.5 * (elbow + end_effector(q[0], q[1]))
    pen = radius - wp.length(mid - obstacle)
    cost[0] = wp.max(pen, 0.0) * wp.max(pen, 0.0) + 0.1 * pen


def task_gradients(q):
    """Return (reach cost, d reach/dq, d clearance/dq) at joint angles q."""
    reach = wp.zeros(1, dtype=float, requires_grad=True)
    clear = wp.zeros(1, dtype=float, requires_grad=True)
    tape_reach, tape_clear = wp.Tape(), wp.Tape()
    with tape_reach:
        wp.launch(reach_cost, dim=1, inputs=[q, wp.vec2(0.2, 1.5)], outputs=[reach])
    with tape_clear:
        wp.launch(clearance_cost, dim=1, inputs=[q, wp.vec2(0.6, 0.9), 0.5], outputs=[clear])
    tape_reach.backward(reach)
    g_reach = q.grad.numpy().copy()
    tape_reach.zero()
    tape_clear.backward(clear)
    g_clear = q.grad.numpy().copy()
    tape_clear.zero()
    return float(reach.numpy()[0]), float(clear.numpy()[0]), g_reach, g_clear


def project(g, h):
    # drop the component of g that fights h
    d = np.dot(g, h)
    return g - d / np.dot(h, h) * h if d < 0 else g


PARAMS0 = np.array([0.3, 0.9], dtype=np.float32)


def verify():
    def costs(qn):
        r, c, _, _ = task_gradients(wp.array(qn, dtype=float, requires_grad=True))
        return np.array([r, c])
    _, _, gr, gc = task_gradients(wp.array(PARAMS0, dtype=float, requires_grad=True))
    h = 1e-3
    fd = np.array([(costs(PARAMS0 + h * e) - costs(PARAMS0 - h * e)) / (2 * h) for e in np.eye(2, dtype=np.float32)]).T
    return np.concatenate([gr, gc]), fd.ravel()


def main():
    q = wp.array(PARAMS0, dtype=float, requires_grad=True)
    for it in range(20):
        reach, clear, g_reach, g_clear = task_gradients(q)
        step = project(g_reach, g_clear) + g_clear
        q.assign(q.numpy() - 0.1 * step.astype(np.float32))
    print("reach", reach, "clearance", clear, "q", q.numpy())


if __name__ == "__main__":
    main()
