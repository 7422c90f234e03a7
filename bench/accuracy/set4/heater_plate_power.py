# correct: in-place wp.copy write-back of a buffer whose reader is linear in it (constant coefficients)
import numpy as np
import warp as wp

NX = 10
NY = 8
STEPS = 6


@wp.kernel
def heat_step(u: wp.array2d(dtype=wp.float32), heater: wp.array2d(dtype=wp.float32), power: wp.array(dtype=wp.float32), dt: wp.float32, u_new: wp.array2d(dtype=wp.float32)):
    i, j = wp.tid()
    c = u[i, j]
    l = u[wp.max(i - 1, 0), j]
    r = u[wp.min(i + 1, NX - 1), j]
    d = u[i, wp.max(j - 1, 0)]
    t = u[i, wp.min(j + 1, NY - 1)]
    u_new[i, j] = c + dt * (0.2 * (l + r + d + t - 4.0 * c) + wp.tanh(power[0]) * heater[i, j] - 0.05 * c)


@wp.kernel
def comfort_loss(u: wp.array2d(dtype=wp.float32), setpoint: wp.float32, loss: wp.array(dtype=wp.float32)):
    i, j = wp.tid()
    d = wp.sin(u[i, j]) - setpoint
    wp.atomic_add(loss, 0, d * d)


class Plate:
    def __init__(self):
        heater = np.zeros((NX, NY), dtype=np.float32)
        heater[2:4, 2:5] = 1.0
        heater[7, 5] = 0.5
        self.heater = wp.array(heater, dtype=wp.float32)
        self.u = wp.zeros((NX, NY), dtype=wp.float32, requires_grad=True)
        self.scratch = wp.zeros((NX, NY), dtype=wp.float32, requires_grad=True)
        self.loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)

    def simulate(self, power):
        for _ in range(STEPS):
            wp.launch(heat_step, dim=(NX, NY), inputs=[self.u, self.heater, power, 0.5], outputs=[self.scratch])
            wp.copy(self.u, self.scratch)
        wp.launch(comfort_loss, dim=(NX, NY), inputs=[self.u, 0.3], outputs=[self.loss])


def loss_and_grad(p):
    plate = Plate()
    power = wp.array([p], dtype=wp.float32, requires_grad=True)
    tape = wp.Tape()
    with tape:
        plate.simulate(power)
    tape.backward(plate.loss)
    return float(plate.loss.numpy()[0]), float(power.grad.numpy()[0])


def main():
    p = 0.8
    for it in range(5):
        l, g = loss_and_grad(p)
        print(f"iter {it}: power={p:.4f} loss={l:.6f} grad={g:.6f}")
        p -= 0.2 * g


if __name__ == "__main__":
    main()
