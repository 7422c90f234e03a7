"""Helper module: a bank of damped pendulums integrated with a class."""
import warp as wp


@wp.kernel
def pendulum_step(theta: wp.array(dtype=float), gain: wp.array(dtype=float), dt: float,
                  theta_next: wp.array(dtype=float)):
    i = wp.tid()
    # restoring term is nonlinear in theta: its adjoint needs theta's values
    theta_next[i] = theta[i] - dt * gain[i] * wp.sin(theta[i])


class PendulumBank:
    def __init__(self, theta0, gain):
        self.n = len(theta0)
        self.theta = wp.array(theta0, dtype=float, requires_grad=True)
        self.scratch = wp.zeros(self.n, dtype=float, requires_grad=True)
        self.gain = gain

    def step(self, dt):
        wp.launch(pendulum_step, dim=self.n, inputs=[self.theta, self.gain, dt], outputs=[self.scratch])
        wp.copy(self.theta, self.scratch)  # expect: overwrite
