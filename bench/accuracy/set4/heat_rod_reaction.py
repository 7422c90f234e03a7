import numpy as np
import warp as wp

N = 16
STEPS = 10


@wp.kernel
def reaction_diffusion(u: wp.array(dtype=wp.float32), rate: wp.array(dtype=wp.float32), dt: wp.float32, u_next: wp.array(dtype=wp.float32)):
    i = wp.tid()
    n = u.shape[0]
    left = u[wp.max(i - 1, 0)]
    right = u[wp.min(i + 1, n - 1)]
    lap = left - 2.0 * u[i] + right
    u_next[i] = u[i] + dt * (lap + rate[0] * u[i] * (1.0 - u[i]))


@wp.kernel
def mismatch(u: wp.array(dtype=wp.float32), target: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    d = u[i] - target[i]
    wp.atomic_add(loss, 0, d * d)


class Rod:
    def __init__(self, rate):
        x = np.linspace(0.0, 1.0, N, dtype=np.float32)
        self.u0 = np.exp(-30.0 * (x - 0.5) ** 2).astype(np.float32)
        self.target = wp.array(0.6 * np.ones(N, dtype=np.float32), dtype=wp.float32)
        self.rate = wp.array([rate], dtype=wp.float32, requires_grad=True)
        self.u = wp.array(self.u0, dtype=wp.float32, requires_grad=True)
        self.u_next = wp.zeros(N, dtype=wp.float32, requires_grad=True)
        self.loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)

    def step(self, dt):
        wp.launch(reaction_diffusion, dim=N, inputs=[self.u, self.rate, dt], outputs=[self.u_next])
        wp.copy(self.u, self.u_next)  # expect: overwrite

    def forward(self):
        for _ in range(STEPS):
            self.step(0.1)
        wp.launch(mismatch, dim=N, inputs=[self.u, self.target], outputs=[self.loss])
        return self.loss


def loss_and_grad(rate):
    rod = Rod(rate)
    tape = wp.Tape()
    with tape:
        loss = rod.forward()
    tape.backward(loss)
    return float(loss.numpy()[0]), float(rod.rate.grad.numpy()[0])


def main():
    rate = 2.0
    for it in range(5):
        l, g = loss_and_grad(rate)
        print(f"iter {it}: rate={rate:.4f} loss={l:.6f} grad={g:.6f}")
        rate -= 0.5 * g


if __name__ == "__main__":
    main()
