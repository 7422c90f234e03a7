# correct: an accumulation grid allocated once and splatted into every iteration, but zero_()-ed before each recording
"""Pour sand grains (ballistic particles) so that their landing heightmap
matches a target mound; the pour velocity is optimised by gradient descent.
Grains are splatted with a Gaussian footprint into a persistent heightmap
grid (allocated once, reused every iteration).
"""
import numpy as np
import warp as wp

G = 12
CELL = 0.1
N = 16
FLIGHT_T = 0.35


@wp.kernel
def land(x0: wp.array(dtype=wp.vec2), pour: wp.array(dtype=float), landing: wp.array(dtype=wp.vec2)):
    i = wp.tid()
    # drag-free flight for FLIGHT_T seconds, horizontal plane only
    landing[i] = x0[i] + FLIGHT_T * wp.vec2(pour[0], pour[1]) * (1.0 + 0.05 * float(i % 4))


@wp.kernel
def splat(landing: wp.array(dtype=wp.vec2), height: wp.array2d(dtype=float)):
    i, a, b = wp.tid()
    c = wp.vec2((float(a) + 0.5) * CELL, (float(b) + 0.5) * CELL)
    d = landing[i] - c
    wp.atomic_add(height, a, b, 0.02 * wp.exp(-wp.dot(d, d) / (2.0 * 0.12 * 0.12)))


@wp.kernel
def mound_loss(height: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    a, b = wp.tid()
    d = height[a, b] - target[a, b]
    wp.atomic_add(loss, 0, 100.0 * d * d)


rng = np.random.default_rng(5)
X0 = wp.array(rng.uniform(0.2, 0.4, size=(N, 2)).astype(np.float32), dtype=wp.vec2)
ii, jj = np.mgrid[0:G, 0:G]
TARGET = wp.array((0.3 * np.exp(-((ii - 7.5) ** 2 + (jj - 6.0) ** 2) / 4.0)).astype(np.float32), dtype=float)


class Pour:
    def __init__(self):
        self.height = wp.zeros((G, G), dtype=float, requires_grad=True)
        self.landing = wp.zeros(N, dtype=wp.vec2, requires_grad=True)

    def loss_and_grad(self, pour_np):
        pour = wp.array(np.asarray(pour_np, dtype=np.float32), dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        self.height.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(land, dim=N, inputs=[X0, pour], outputs=[self.landing])
            wp.launch(splat, dim=(N, G, G), inputs=[self.landing], outputs=[self.height])
            wp.launch(mound_loss, dim=(G, G), inputs=[self.height, TARGET], outputs=[loss])
        tape.backward(loss)
        g = pour.grad.numpy().copy()
        tape.zero()
        return float(loss.numpy()[0]), g


def verify():
    """AD: gradient of the 3rd descent iteration; FD: objective of a fresh
    Pour object at the same pour velocity."""
    p = np.array([1.0, 0.5])
    pour = Pour()
    for _ in range(3):
        _, g = pour.loss_and_grad(p)
        p_used = p.copy()
        p = p - 0.004 * g
    eps = 1e-3
    fd = np.array([(Pour().loss_and_grad(p_used + e)[0] - Pour().loss_and_grad(p_used - e)[0]) / (2 * eps)
                   for e in np.eye(2) * eps])
    return g, fd


if __name__ == "__main__":
    pour = Pour()
    p = np.array([1.0, 0.5])
    for it in range(5):
        l, g = pour.loss_and_grad(p)
        print(f"iter {it}: loss {l:.5f} pour {p}")
        p = p - 0.004 * g
