import numpy as np
import warp as wp
import warp.optim

from _arm import joint_points

TARGET = wp.constant(wp.vec2(0.55, 0.65))
ITERS = 3


@wp.kernel
def posture_cost(q: wp.array(dtype=float), rest: wp.array(dtype=float), cost: wp.array(dtype=float)):
    m = joint_points(wp.vec3(q[0], q[1], q[2]))
    d = wp.vec2(m[2, 0], m[2, 1]) - TARGET
    c = wp.dot(d, d)
    for k in range(3):
        c += 0.05 * (q[k] - rest[k]) * (q[k] - rest[k])
    c += 0.2 * m[1, 1] * m[1, 1]
    cost[0] = c


class PostureOptimizer:
    def __init__(self, q0):
        self.q = wp.array(q0, dtype=float, requires_grad=True)
        self.rest = wp.array([0.2, 0.9, 0.4], dtype=float)
        self.cost = wp.zeros(1, dtype=float, requires_grad=True)
        self.opt = warp.optim.SGD([self.q], lr=0.1)
        self.tape = wp.Tape()

    def step(self, apply=True):
        self.tape.reset()
        with self.tape:
            wp.launch(posture_cost, dim=1, inputs=[self.q, self.rest], outputs=[self.cost])
        self.tape.backward(self.cost)
        self.tape.zero()  # expect: grad_read
        self.consumed = self.q.grad.numpy().copy()
        if apply:
            self.opt.step([self.q.grad])
        return float(self.cost.numpy()[0])


def objective(q_np):
    return PostureOptimizer(q_np).step(apply=False)


def verify():
    po = PostureOptimizer(np.array([0.1, 0.5, 0.3]))
    for it in range(ITERS):
        po.step(apply=it < ITERS - 1)
    q = po.q.numpy().copy()
    fd = np.array([(objective(q + e) - objective(q - e)) / 2e-3 for e in np.eye(3) * 1e-3])
    return po.consumed, fd


if __name__ == "__main__":
    po = PostureOptimizer(np.array([0.1, 0.5, 0.3]))
    for it in range(ITERS):
        c = po.step()
    print("posture cost", c, "q", po.q.numpy())
