import numpy as np
import warp as wp

from _arm import joint_points

TARGETS = np.array([[0.7, 0.4], [0.2, 0.9], [0.8, -0.2], [0.4, 0.5], [0.6, 0.6]])
B = len(TARGETS)
ITERS = 4


@wp.kernel
def ee_error(q: wp.array(dtype=wp.vec3), targets: wp.array(dtype=wp.vec2), err: wp.array(dtype=float)):
    i = wp.tid()
    m = joint_points(q[i])
    d = wp.vec2(m[2, 0], m[2, 1]) - targets[i]
    wp.atomic_add(err, 0, wp.dot(d, d))


@wp.kernel
def rms(err: wp.array(dtype=float), n: float, out: wp.array(dtype=float)):
    out[0] = wp.sqrt(err[0] / n + 1.0e-4)


class IKSolver:
    def __init__(self):
        self.targets = wp.array(TARGETS, dtype=wp.vec2)
        self.err = wp.zeros(1, dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.tape = wp.Tape()

    def reset(self):
        self.tape.reset()
        self.err.grad.zero_()  # expect: missing_zero

    def loss_and_grad(self, q):
        self.reset()
        with self.tape:
            wp.launch(ee_error, dim=B, inputs=[q, self.targets], outputs=[self.err])
            wp.launch(rms, dim=1, inputs=[self.err, float(B)], outputs=[self.loss])
        self.tape.backward(self.loss)
        return float(self.loss.numpy()[0]), q.grad.numpy().copy()


def solve(iters):
    solver = IKSolver()
    q = wp.array(np.tile([0.3, 0.6, 0.2], (B, 1)), dtype=wp.vec3, requires_grad=True)
    for it in range(iters):
        loss, g = solver.loss_and_grad(q)
        if it < iters - 1:
            q = wp.array(q.numpy() - 0.3 * g, dtype=wp.vec3, requires_grad=True)
    return q.numpy().copy(), g.ravel(), loss


def verify():
    q_last, ad, _ = solve(ITERS)
    fd = np.zeros(q_last.size)
    for k in range(q_last.size):
        e = np.zeros(q_last.size)
        e[k] = 1e-3
        lp = IKSolver().loss_and_grad(wp.array((q_last.ravel() + e).reshape(B, 3), dtype=wp.vec3, requires_grad=True))[0]
        lm = IKSolver().loss_and_grad(wp.array((q_last.ravel() - e).reshape(B, 3), dtype=wp.vec3, requires_grad=True))[0]
        fd[k] = (lp - lm) / 2e-3
    return ad, fd


if __name__ == "__main__":
    _, g, loss = solve(ITERS)
    print("rms end-effector error", loss)
