# correct: optimisation loop that reuses one tape and resets it (zeroing gradients) every iteration
import numpy as np
import warp as wp

STEPS = 10
DT = 0.05


@wp.kernel
def hover(thrust: wp.array(dtype=wp.float32), mass: wp.float32, z: wp.array(dtype=wp.float32)):
    h = float(0.0)
    vz = float(0.0)
    for _t in range(STEPS):
        az = thrust[0] * thrust[0] / mass - 9.8 - 0.3 * vz * wp.abs(vz)
        vz = vz + az * DT
        h = h + vz * DT
    z[0] = h


@wp.kernel
def altitude_error(z: wp.array(dtype=wp.float32), goal: wp.float32, loss: wp.array(dtype=wp.float32)):
    d = z[0] - goal
    loss[0] = d * d


class TrimSolver:
    def __init__(self):
        self.thrust = wp.array([3.0], dtype=wp.float32, requires_grad=True)
        self.z = wp.zeros(1, dtype=wp.float32, requires_grad=True)
        self.loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
        self.tape = wp.Tape()

    def iterate(self, lr):
        with self.tape:
            wp.launch(hover, dim=1, inputs=[self.thrust, 1.0], outputs=[self.z])
            wp.launch(altitude_error, dim=1, inputs=[self.z, 0.4], outputs=[self.loss])
        self.tape.backward(self.loss)
        th = float(self.thrust.numpy()[0])
        g = float(self.thrust.grad.numpy()[0])
        self.thrust.assign([th - lr * g])
        self.tape.reset()
        return th, float(self.loss.numpy()[0]), g


def main():
    s = TrimSolver()
    for it in range(6):
        th, l, g = s.iterate(0.05)
        print(f"iter {it}: thrust={th:.4f} loss={l:.6f} grad={g:.6f}")


if __name__ == "__main__":
    main()
