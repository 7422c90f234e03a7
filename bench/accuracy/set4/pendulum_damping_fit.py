import numpy as np
import warp as wp

STEPS = 10
DT = 0.05
LENGTHS = np.array([0.5, 0.8, 1.0, 1.3], dtype=np.float32)
THETA0 = np.array([0.6, -0.4, 1.0, 0.3], dtype=np.float32)
TARGET = np.array([0.35, -0.25, 0.5, 0.2], dtype=np.float32)


@wp.kernel
def pendulum_step(
    theta: wp.array(dtype=wp.float32),
    omega: wp.array(dtype=wp.float32),
    length: wp.array(dtype=wp.float32),
    damping: wp.array(dtype=wp.float32),
    dt: wp.float32,
    theta_out: wp.array(dtype=wp.float32),
    omega_out: wp.array(dtype=wp.float32),
):
    i = wp.tid()
    w = omega[i] + dt * (-9.8 / length[i] * wp.sin(theta[i]) - damping[0] * omega[i])
    omega_out[i] = w
    theta_out[i] = theta[i] + dt * w


@wp.kernel
def angle_loss(theta: wp.array(dtype=wp.float32), target: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    wp.atomic_add(loss, 0, 1.0 - wp.cos(theta[i] - target[i]))


class PendulumBank:
    def __init__(self):
        n = len(LENGTHS)
        self.length = wp.array(LENGTHS, dtype=wp.float32)
        self.target = wp.array(TARGET, dtype=wp.float32)
        self.theta = [wp.zeros(n, dtype=wp.float32, requires_grad=True) for _ in range(STEPS + 1)]
        self.omega = [wp.zeros(n, dtype=wp.float32, requires_grad=True) for _ in range(STEPS + 1)]
        self.loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)

    def rollout(self, damping):
        n = len(LENGTHS)
        for t in range(STEPS):
            wp.launch(
                pendulum_step,
                dim=n,
                inputs=[self.theta[t], self.omega[t], self.length, damping, DT],
                outputs=[self.theta[t + 1], self.omega[t + 1]],
            )
        wp.launch(angle_loss, dim=n, inputs=[self.theta[STEPS], self.target], outputs=[self.loss])

    def reset(self):
        self.theta[0].assign(THETA0)
        for t in range(1, STEPS + 1):
            self.theta[t].zero_()
            self.omega[t].zero_()
        self.omega[0].zero_()
        self.loss.zero_()


def loss_and_grad(bank, damping_value):
    damping = wp.array([damping_value], dtype=wp.float32, requires_grad=True)
    bank.reset()
    tape = wp.Tape()
    with tape:
        bank.rollout(damping)
    loss = float(bank.loss.numpy()[0])
    bank.reset()  # expect: untaped_write
    tape.backward(bank.loss)
    return loss, float(damping.grad.numpy()[0])


def main():
    bank = PendulumBank()
    c = 0.5
    for it in range(5):
        l, g = loss_and_grad(bank, c)
        print(f"iter {it}: damping={c:.4f} loss={l:.6f} grad={g:.6f}")
        c -= 2.0 * g


if __name__ == "__main__":
    main()
