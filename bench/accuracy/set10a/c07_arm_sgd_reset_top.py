# correct: no tape.zero() after the optimiser step, but the one reused tape is reset() at the top of every iteration, which zeroes its gradients
"""Two-link arm reaching task (shared _arm2 dynamics) trained with
warp.optim.SGD with momentum; one Tape object is reused for all iterations.
"""
import numpy as np
import warp as wp
from warp.optim import SGD

from _arm2 import joint_step, reach_loss

KNOTS = 3
STEPS_PER_KNOT = 12
DT = 0.02
TARGET = wp.vec2(-0.1, 0.7)


class Trainer:
    def __init__(self, u0):
        self.u = wp.array(u0, dtype=float, requires_grad=True)
        self.opt = SGD([self.u], lr=0.02, momentum=0.5)
        self.tape = wp.Tape()
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    def forward(self, u, loss):
        q = wp.array([0.2, 0.2], dtype=float, requires_grad=True)
        qd = wp.zeros(2, dtype=float, requires_grad=True)
        for k in range(KNOTS):
            for _ in range(STEPS_PER_KNOT):
                q1, qd1 = wp.zeros_like(q), wp.zeros_like(qd)
                wp.launch(joint_step, dim=2, inputs=[q, qd, u, k, DT], outputs=[q1, qd1])
                q, qd = q1, qd1
        wp.launch(reach_loss, dim=2 * KNOTS, inputs=[q, u, TARGET, 1e-3], outputs=[loss])

    def objective(self, u_np):
        loss = wp.zeros(1, dtype=float)
        self.forward(wp.array(np.asarray(u_np, dtype=np.float32), dtype=float), loss)
        return float(loss.numpy()[0])

    def iteration(self):
        self.tape.reset()
        self.loss.zero_()
        with self.tape:
            self.forward(self.u, self.loss)
        self.tape.backward(self.loss)
        used = (self.u.numpy().copy(), self.u.grad.numpy().copy())
        self.opt.step([self.u.grad])
        return float(self.loss.numpy()[0]), used


U0 = np.array([3.0, 1.0, 2.5, 0.8, 2.0, 0.5], dtype=np.float32)


def verify():
    """AD: gradient the optimiser consumed at iteration 3; FD: central
    differences of the objective at that iteration's torques."""
    tr = Trainer(U0)
    for _ in range(3):
        _, (u_used, g_used) = tr.iteration()
    eps = 1e-2
    fd = np.zeros(u_used.size)
    for i in range(u_used.size):
        up, um = u_used.copy(), u_used.copy()
        up[i] += eps
        um[i] -= eps
        fd[i] = (tr.objective(up) - tr.objective(um)) / (2 * eps)
    return g_used, fd


if __name__ == "__main__":
    tr = Trainer(U0)
    for it in range(6):
        l, _ = tr.iteration()
        print(f"iter {it}: loss {l:.5f}")
