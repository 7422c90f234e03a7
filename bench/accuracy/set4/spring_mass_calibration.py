import numpy as np
import warp as wp

STEPS = 12
DT = 0.02


@wp.kernel
def oscillate(k: wp.array(dtype=wp.float32), c: wp.array(dtype=wp.float32), x0: wp.array(dtype=wp.float32), traj: wp.array2d(dtype=wp.float32)):
    i = wp.tid()
    x = x0[i]
    v = x0[i] * 0.0
    for t in range(STEPS):
        a = -k[i] * x - c[0] * v - 0.5 * x * x * x
        v = v + a * DT
        x = x + v * DT
        traj[i, t] = x


@wp.kernel
def traj_loss(traj: wp.array2d(dtype=wp.float32), meas: wp.array2d(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i, t = wp.tid()
    d = traj[i, t] - meas[i, t]
    wp.atomic_add(loss, 0, d * d)


class Calibrator:
    def __init__(self, n=3):
        self.n = n
        self.k = wp.array(np.linspace(4.0, 6.0, n).astype(np.float32), dtype=wp.float32, requires_grad=True)
        self.c = wp.array([0.3], dtype=wp.float32, requires_grad=True)
        self.x0 = wp.array(np.linspace(0.5, 1.0, n).astype(np.float32), dtype=wp.float32)
        self.traj = wp.zeros((n, STEPS), dtype=wp.float32, requires_grad=True)
        self.loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
        t = np.arange(1, STEPS + 1) * DT
        meas = np.outer(np.linspace(0.5, 1.0, n), np.cos(2.2 * t) * np.exp(-0.1 * t))
        self.meas = wp.array(meas.astype(np.float32), dtype=wp.float32)

    def step(self, lr):
        tape = wp.Tape()
        tape.zero()  # expect: missing_zero
        self.loss.zero_()
        with tape:
            wp.launch(oscillate, dim=self.n, inputs=[self.k, self.c, self.x0], outputs=[self.traj])
            wp.launch(traj_loss, dim=(self.n, STEPS), inputs=[self.traj, self.meas], outputs=[self.loss])
        tape.backward(self.loss)
        gk = self.k.grad.numpy().copy()
        gc = self.c.grad.numpy().copy()
        self.k.assign(self.k.numpy() - lr * gk)
        self.c.assign(self.c.numpy() - lr * gc)
        return float(self.loss.numpy()[0]), gk, gc


def main():
    cal = Calibrator()
    for it in range(6):
        l, gk, gc = cal.step(0.05)
        print(f"iter {it}: loss={l:.5f} dk={gk} dc={gc}")


if __name__ == "__main__":
    main()
