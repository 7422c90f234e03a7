import numpy as np
import warp as wp

M = 12
K = 3


@wp.kernel
def panel_pressure(thick: wp.array(dtype=wp.float32), x: wp.array(dtype=wp.float32), cp: wp.array(dtype=wp.float32)):
    i = wp.tid()
    slope = thick[wp.min(i + 1, M - 1)] - thick[wp.max(i - 1, 0)]
    cp[i] = 1.0 - wp.pow(1.0 + 2.0 * thick[i] + 0.5 * slope * slope, 2.0)


@wp.kernel
def drag_proxy(cp: wp.array(dtype=wp.float32), thick: wp.array(dtype=wp.float32), loss: wp.array(dtype=wp.float32)):
    i = wp.tid()
    vol = thick[i] - 0.06
    wp.atomic_add(loss, 0, cp[i] * cp[i] + 50.0 * vol * vol)


def basis():
    x = np.linspace(0.0, 1.0, M)
    return np.stack([np.sin(np.pi * (k + 1) * x) * np.sqrt(x) * (1 - x) for k in range(K)], axis=1)


class ShapeOptimizer:
    def __init__(self):
        self.B = basis().astype(np.float32)
        self.x = wp.array(np.linspace(0.0, 1.0, M).astype(np.float32), dtype=wp.float32)
        self.thick = wp.zeros(M, dtype=wp.float32, requires_grad=True)
        self.cp = wp.zeros(M, dtype=wp.float32, requires_grad=True)
        self.loss = wp.zeros(1, dtype=wp.float32, requires_grad=True)
        self.tape = wp.Tape()

    def grad(self, coeffs):
        self.thick.assign((self.B @ coeffs).astype(np.float32))
        self.loss.zero_()
        with self.tape:
            wp.launch(panel_pressure, dim=M, inputs=[self.thick, self.x], outputs=[self.cp])
            wp.launch(drag_proxy, dim=M, inputs=[self.cp, self.thick], outputs=[self.loss])
        d_thick = self.thick.grad.numpy().copy()  # expect: grad_read
        self.tape.backward(self.loss)
        g = self.B.T @ d_thick
        self.tape.reset()
        return float(self.loss.numpy()[0]), g


def main():
    opt = ShapeOptimizer()
    c = np.array([0.2, 0.0, 0.05], dtype=np.float32)
    for it in range(6):
        l, g = opt.grad(c)
        print(f"iter {it}: coeffs={c} loss={l:.5f} grad={g}")
        c = (c - 0.01 * g).astype(np.float32)


if __name__ == "__main__":
    main()
