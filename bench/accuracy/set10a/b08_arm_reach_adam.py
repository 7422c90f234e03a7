"""Open-loop torque schedule for a two-link arm reaching a target, trained
with warp.optim.Adam. The torque schedule is piecewise constant over KNOTS
knots; the loss is the end-effector miss distance plus a small effort term.
"""
import numpy as np
import warp as wp
from warp.optim import Adam

from _arm2 import joint_step, reach_loss

KNOTS = 4
STEPS_PER_KNOT = 10
DT = 0.02
TARGET = wp.vec2(0.2, 0.6)
EFFORT = 1e-3


class ArmController:
    def __init__(self, u_init):
        self.u = wp.array(u_init, dtype=float, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.opt = Adam([self.u], lr=0.05)
        self.tape = None

    def rollout(self, u, loss):
        q = wp.array([0.1, 0.3], dtype=float, requires_grad=True)
        qd = wp.zeros(2, dtype=float, requires_grad=True)
        for k in range(KNOTS):
            for _ in range(STEPS_PER_KNOT):
                q1, qd1 = wp.empty_like(q), wp.empty_like(qd)
                wp.launch(joint_step, dim=2, inputs=[q, qd, u, k, DT], outputs=[q1, qd1])
                q, qd = q1, qd1
        wp.launch(reach_loss, dim=2 * KNOTS, inputs=[q, u, TARGET, EFFORT], outputs=[loss])

    def objective(self, u_np):
        """Plain forward evaluation (no tape), e.g. for line searches and checks."""
        loss = wp.zeros(1, dtype=float)
        self.rollout(wp.array(np.asarray(u_np, dtype=np.float32), dtype=float), loss)
        return float(loss.numpy()[0])

    def zero_grad(self):
        self.loss.grad.zero_()  # expect: missing_zero

    def train_step(self):
        self.loss.zero_()
        self.tape = wp.Tape()
        with self.tape:
            self.rollout(self.u, self.loss)
        self.tape.backward(self.loss)
        used = (self.u.numpy().copy(), self.u.grad.numpy().copy())
        self.opt.step([self.u.grad])
        self.zero_grad()
        return float(self.loss.numpy()[0]), used


U0 = np.array([3.0, 1.0, 2.0, 0.5, 1.5, 0.2, 1.0, 0.0], dtype=np.float32)


def verify():
    """AD: the gradient Adam consumed at the 3rd iteration; FD: central
    differences of the objective at the parameters of that iteration."""
    ctl = ArmController(U0)
    for it in range(3):
        _, (u_used, g_used) = ctl.train_step()
    eps = 1e-2
    fd = np.zeros(u_used.size)
    for i in range(u_used.size):
        up, um = u_used.copy().ravel(), u_used.copy().ravel()
        up[i] += eps
        um[i] -= eps
        fd[i] = (ctl.objective(up.reshape(u_used.shape)) - ctl.objective(um.reshape(u_used.shape))) / (2 * eps)
    return g_used.ravel(), fd


if __name__ == "__main__":
    ctl = ArmController(U0)
    for it in range(8):
        l, _ = ctl.train_step()
        print(f"iter {it}: loss {l:.5f}")
