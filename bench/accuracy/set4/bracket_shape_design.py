# correct: gradient of an input array (set from NumPy, not written on the tape) read after backward, chain rule in NumPy
import numpy as np
import warp as wp

M = 10
K = 3


@wp.kernel
def beam_compliance(height: wp.array(dtype=wp.float32), load: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.float32)):
    i = wp.tid()
    h = height[i]
    inertia = h * h * h / 12.0
    wp.atomic_add(out, 0, load[i] * load[i] / inertia + 2.0 * h)


class BracketDesign:
    def __init__(self):
        x = np.linspace(0.0, 1.0, M)
        self.B = np.stack([np.ones(M), x, x * x], axis=1).astype(np.float32)
        self.load = wp.array(np.linspace(1.0, 0.2, M).astype(np.float32), dtype=wp.float32)
        self.height = wp.zeros(M, dtype=wp.float32, requires_grad=True)
        self.out = wp.zeros(1, dtype=wp.float32, requires_grad=True)
        self.tape = wp.Tape()

    def grad(self, coeffs):
        self.height.assign((self.B @ coeffs).astype(np.float32))
        self.out.zero_()
        with self.tape:
            wp.launch(beam_compliance, dim=M, inputs=[self.height, self.load], outputs=[self.out])
        self.tape.backward(self.out)
        g = self.B.T @ self.height.grad.numpy()
        self.tape.reset()
        return float(self.out.numpy()[0]), g


def main():
    d = BracketDesign()
    c = np.array([1.0, -0.3, 0.1], dtype=np.float32)
    for it in range(6):
        v, g = d.grad(c)
        print(f"iter {it}: coeffs={c} compliance={v:.5f} grad={g}")
        c = (c - 0.002 * g).astype(np.float32)


if __name__ == "__main__":
    main()
