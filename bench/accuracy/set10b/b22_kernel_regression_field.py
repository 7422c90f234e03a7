"""Learn a smooth 2-D field as a Nadaraya-Watson interpolant with movable
centres: positions, values and the shared bandwidth of the kernels are fitted
to scattered measurements (a sensor-placement style inverse problem).
"""
import numpy as np
import warp as wp

from _kernel_field import NUM_CENTERS, field_misfit

wp.config.quiet = True

N_SAMPLES = 50


def measurements(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, (N_SAMPLES, 2)).astype(np.float32)
    y = (np.cos(2 * x[:, 0]) * np.exp(-x[:, 1] ** 2) + 0.4 * x[:, 1]).astype(np.float32)
    return wp.array(x, dtype=wp.vec2), wp.array(y, dtype=float)


XS, YS = measurements()
_g = np.random.default_rng(1)
PARAMS0 = np.concatenate([_g.uniform(-0.9, 0.9, 2 * NUM_CENTERS), _g.normal(0.3, 0.5, NUM_CENTERS), [np.log(0.4)]])


class KernelField:
    def __init__(self, p):
        p = np.asarray(p, np.float32)
        self.centers = wp.array(p[: 2 * NUM_CENTERS].reshape(-1, 2), dtype=wp.vec2, requires_grad=True)
        self.values = wp.array(p[2 * NUM_CENTERS: 3 * NUM_CENTERS], dtype=float, requires_grad=True)
        self.log_h = wp.array(p[-1:], dtype=float, requires_grad=True)

    def loss_and_grad(self, xs, ys):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(field_misfit, dim=xs.shape[0],
                      inputs=[xs, ys, self.centers, self.values, self.log_h, NUM_CENTERS], outputs=[loss])
        tape.backward(loss)
        g = np.concatenate([self.centers.grad.numpy().ravel(), self.values.grad.numpy(), self.log_h.grad.numpy()])
        return float(loss.numpy()[0]), g.astype(np.float64)


def evaluate(p):
    return KernelField(p).loss_and_grad(XS, YS)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(100):
        loss, g = evaluate(p)
        p -= 0.1 * g
        if it % 25 == 0:
            print(f"iter {it:3d} mse {loss:.5f} bandwidth {np.exp(p[-1]):.3f}")
