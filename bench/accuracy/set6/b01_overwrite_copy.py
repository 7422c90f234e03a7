"""Fit per-pendulum gains so that the final angles hit a target (class in a helper module)."""
import numpy as np
import warp as wp

from _b01_pendulums import PendulumBank

N = 8
STEPS = 5
DT = 0.2


@wp.kernel
def angle_loss(theta: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = theta[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


def simulate(gain, theta0, target):
    bank = PendulumBank(theta0, gain)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for _ in range(STEPS):
            bank.step(DT)
        wp.launch(angle_loss, dim=N, inputs=[bank.theta, target], outputs=[loss])
    return tape, loss


def main():
    theta0 = np.linspace(0.3, 1.4, N).astype(np.float32)
    target = wp.array(np.full(N, 0.2, dtype=np.float32), dtype=float)
    gain = wp.array(np.full(N, 1.5, dtype=np.float32), dtype=float, requires_grad=True)
    tape, loss = simulate(gain, theta0, target)
    tape.backward(loss)
    print("loss", loss.numpy()[0])
    print("dloss/dgain", gain.grad.numpy())
    return gain.grad.numpy()


if __name__ == "__main__":
    main()
