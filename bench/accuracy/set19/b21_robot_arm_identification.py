"""Identification of a two-link planar arm from joint-encoder logs.

State per trial is a wp.vec4 (q1, q2, dq1, dq2). A fixed PD controller drives
the arm towards its set-point; the unknown forearm payload mass and the joint
viscous damping are identified by matching the encoder angles over 30 steps
of semi-implicit Euler. The simulator keeps its states in a ring of buffers.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

N_TRIAL = 4
N_STEPS = 30
DT = 0.01
G = 9.81
L1, L2 = 0.4, 0.3
I1, I2 = 0.12, 0.05


@wp.kernel
def arm_step(par: wp.array(dtype=float), target: wp.array(dtype=wp.vec2), x: wp.array(dtype=wp.vec4),
             x_next: wp.array(dtype=wp.vec4)):
    i = wp.tid()
    s = x[i]
    m2 = par[0]
    b = par[1]
    tau1 = 8.0 * (target[i][0] - s[0]) - 0.5 * s[2]
    tau2 = 4.0 * (target[i][1] - s[1]) - 0.2 * s[3]
    g1 = (1.0 + m2) * G * L1 * wp.cos(s[0]) + m2 * G * L2 * wp.cos(s[0] + s[1])
    g2 = m2 * G * L2 * wp.cos(s[0] + s[1])
    dd1 = (tau1 - b * s[2] - g1) / (I1 + m2 * L1 * L1)
    dd2 = (tau2 - b * s[3] - g2) / (I2 + m2 * L2 * L2)
    v1 = s[2] + DT * dd1
    v2 = s[3] + DT * dd2
    x_next[i] = wp.vec4(s[0] + DT * v1, s[1] + DT * v2, v1, v2)


@wp.kernel
def encoder_misfit(x: wp.array(dtype=wp.vec4), enc: wp.array(dtype=wp.vec2), loss: wp.array(dtype=float)):
    i = wp.tid()
    e1 = x[i][0] - enc[i][0]
    e2 = x[i][1] - enc[i][1]
    wp.atomic_add(loss, 0, 100.0 * (e1 * e1 + e2 * e2))


class ArmSimulator:
    def __init__(self, x0, target):
        self.n_buf = 2  # expect: ring_buffer
        self.states = [wp.zeros(N_TRIAL, dtype=wp.vec4, requires_grad=True) for _ in range(self.n_buf)]
        self.x0 = x0
        self.target = wp.array(target, dtype=wp.vec2)

    def misfit(self, p, enc_log):
        par = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        for s in self.states:
            s.zero_()
            s.grad.zero_()
        self.states[0].assign(self.x0)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            for t in range(N_STEPS):
                cur = self.states[t % self.n_buf]
                nxt = self.states[(t + 1) % self.n_buf]
                wp.launch(arm_step, dim=N_TRIAL, inputs=[par, self.target, cur], outputs=[nxt])
                wp.launch(encoder_misfit, dim=N_TRIAL, inputs=[nxt, enc_log[t]], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), par.grad.numpy().copy()


X0 = np.array([[0.0, 0.3, 0.0, 0.0], [0.4, -0.2, 0.0, 0.0], [-0.3, 0.5, 0.0, 0.0], [0.8, 0.1, 0.0, 0.0]])
TARGET = np.array([[1.0, 0.6], [0.9, 0.2], [0.5, 1.0], [1.2, -0.4]])
ENC = [wp.array(X0[:, :2] + (TARGET - X0[:, :2]) * (1 - np.exp(-(t + 1) / 12.0)), dtype=wp.vec2) for t in range(N_STEPS)]
SIM = ArmSimulator(X0, TARGET)
PARAMS0 = [0.8, 0.3]  # payload kg, damping N m s
FD_EPS = 1e-3


def evaluate(p):
    return SIM.misfit(p, ENC)


if __name__ == "__main__":
    l, g = evaluate(np.array(PARAMS0))
    print(f"encoder misfit {l:.4f}  d/dm2 {g[0]:.4f}  d/db {g[1]:.4f}")
