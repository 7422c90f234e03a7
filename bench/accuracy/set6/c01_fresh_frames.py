# correct: Correct look-alike of b01: fresh array per frame; the restart copy happens after backward().
"""Correct look-alike of b01: fresh array per frame; the restart copy happens after backward()."""
import numpy as np
import warp as wp

from _c01_pendulums import PendulumBank

N = 8
STEPS = 5
DT = 0.2


@wp.kernel
def angle_loss(theta: wp.array(dtype=float), target: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = theta[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


def main():
    theta0 = np.linspace(0.3, 1.4, N).astype(np.float32)
    target = wp.array(np.full(N, 0.2, dtype=np.float32), dtype=float)
    gain = wp.array(np.full(N, 1.5, dtype=np.float32), dtype=float, requires_grad=True)
    bank = PendulumBank(theta0, gain)
    for episode in range(3):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            for _ in range(STEPS):
                bank.step(DT)
            wp.launch(angle_loss, dim=N, inputs=[bank.theta, target], outputs=[loss])
        tape.backward(loss)
        print("episode", episode, "loss", loss.numpy()[0], "grad[0]", gain.grad.numpy()[0])
        gain.assign(gain.numpy() - 0.5 * gain.grad.numpy())
        tape.zero()
        wp.copy(bank.start, wp.array(theta0, dtype=float))
        bank.restart(theta0)


if __name__ == "__main__":
    main()
