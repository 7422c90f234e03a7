"""Helper module: a bank of pendulums that keeps one array per frame."""
import warp as wp


@wp.kernel
def pendulum_step(theta: wp.array(dtype=float), gain: wp.array(dtype=float), dt: float,
                  theta_next: wp.array(dtype=float)):
    i = wp.tid()
    theta_next[i] = theta[i] - dt * gain[i] * wp.sin(theta[i])


class PendulumBank:
    def __init__(self, theta0, gain):
        self.n = len(theta0)
        self.start = wp.array(theta0, dtype=float, requires_grad=True)
        self.theta = self.start
        self.gain = gain

    def step(self, dt):
        nxt = wp.empty_like(self.theta)
        wp.launch(pendulum_step, dim=self.n, inputs=[self.theta, self.gain, dt], outputs=[nxt])
        self.theta = nxt

    def restart(self, theta0_np):
        self.start.assign(theta0_np)
        self.theta = self.start
