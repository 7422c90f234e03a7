"""Batched torque-limited pendulum environment (states kept on the device)."""
import numpy as np
import warp as wp

G_OVER_L = 9.81
DT = 0.05


@wp.kernel
def pendulum_step(traj: wp.array2d(dtype=wp.vec2), t: int, theta: wp.array(dtype=float),
                  torque: wp.array2d(dtype=float)):
    b = wp.tid()
    s = traj[t, b]
    q = s[0]
    qd = s[1]
    u = theta[0] * wp.sin(q) + theta[1] * qd + theta[2] * wp.cos(q)
    u = 2.0 * wp.tanh(0.5 * u)
    torque[t, b] = u
    qdd = -G_OVER_L * wp.sin(q) - 0.1 * qd + u
    qd_new = qd + DT * qdd
    traj[t + 1, b] = wp.vec2(q + DT * qd_new, qd_new)


@wp.kernel
def set_initial(traj: wp.array2d(dtype=wp.vec2), q0: wp.array(dtype=float), qd0: wp.array(dtype=float)):
    b = wp.tid()
    traj[0, b] = wp.vec2(q0[b], qd0[b])


class PendulumBatch:
    def __init__(self, batch, horizon, seed=0):
        self.batch = batch
        self.horizon = horizon
        self.rng = np.random.default_rng(seed)
        self.traj = wp.zeros((horizon + 1, batch), dtype=wp.vec2, requires_grad=True)
        self.torque = wp.zeros((horizon, batch), dtype=float, requires_grad=True)
        self.reset()

    def reset(self):
        """Start a new episode: clear the buffers and draw new initial states."""
        q0 = wp.array(self.rng.uniform(-1.0, 1.0, self.batch).astype(np.float32), dtype=float)
        qd0 = wp.array(self.rng.uniform(-0.5, 0.5, self.batch).astype(np.float32), dtype=float)
        self.traj.zero_()
        self.torque.zero_()
        wp.launch(set_initial, dim=self.batch, inputs=[self.traj, q0, qd0])

    def rollout(self, theta):
        for t in range(self.horizon):
            wp.launch(pendulum_step, dim=self.batch, inputs=[self.traj, t, theta, self.torque])
        return self.traj, self.torque
