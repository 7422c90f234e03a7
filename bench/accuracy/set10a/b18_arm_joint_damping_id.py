"""System identification of the per-joint damping factors of a 3-DOF arm
from a logged step response of its PD servos. Damping is modelled as a
per-step velocity retention factor in (0, 1].
"""
import numpy as np
import warp as wp

from _joint_kernels import joint_integrate, servo_torque

STEPS = 60
DT = 0.01
KP, KD = 20.0, 1.0


@wp.kernel
def response_misfit(q: wp.array(dtype=float), logged: wp.array(dtype=float), t: int, loss: wp.array(dtype=float)):
    j = wp.tid()
    d = q[j] - logged[3 * t + j]
    wp.atomic_add(loss, 0, d * d)


class ArmResponse:
    def __init__(self):
        self.setpoint = wp.array([0.8, -0.5, 0.3], dtype=float)
        t = np.arange(1, STEPS + 1) * DT
        sp = np.array([0.8, -0.5, 0.3])
        resp = sp[None, :] * (1.0 - np.exp(-t[:, None] / np.array([0.15, 0.12, 0.08])[None, :]))
        self.logged = wp.array(resp.astype(np.float32).ravel(), dtype=float)

    def loss_and_grad(self, retention):
        damping = wp.array(np.asarray(retention, dtype=np.float32), dtype=float, requires_grad=True)
        q = wp.zeros(3, dtype=float, requires_grad=True)
        qd = wp.zeros(3, dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            for t in range(STEPS):
                tau = wp.zeros(3, dtype=float, requires_grad=True)
                wp.launch(servo_torque, dim=3, inputs=[q, qd, self.setpoint, KP, KD], outputs=[tau])
                q1, qd1 = wp.zeros_like(q), wp.zeros_like(qd)
                wp.launch(joint_integrate, dim=3, inputs=[q, qd, tau, damping, DT], outputs=[q1, qd1])
                q, qd = q1, qd1
                if t % 10 == 9:
                    wp.launch(response_misfit, dim=3, inputs=[q, self.logged, t], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), damping.grad.numpy().copy()


arm = ArmResponse()


def evaluate(p):
    return arm.loss_and_grad(p)


PARAMS0 = np.array([0.85, 0.8, 0.75])
FD_EPS = 1e-3

if __name__ == "__main__":
    l, g = evaluate(PARAMS0)
    print("response misfit", l, "d/d retention", g)
