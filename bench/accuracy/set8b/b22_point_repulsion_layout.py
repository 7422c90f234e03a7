"""Lay out 2D points: each point is pulled toward its anchor and all points repel each other.

E = 0.5 * sum_i |x_i - a_i|^2 + c * sum_{i != j} exp(-|x_i - x_j| / h)
"""

import numpy as np
import warp as wp

wp.config.quiet = True

N = 6
H_REP = 0.3
C_REP = 0.2


@wp.kernel
def repulsion(x: wp.array(dtype=wp.vec2), c: float, energy: wp.array(dtype=float)):
    i, j = wp.tid()
    d = x[i] - x[j]
    d2 = wp.dot(d, d)
    e = wp.where(i != j, wp.exp(-wp.sqrt(d2) / H_REP), 0.0)  # expect: nonfinite
    wp.atomic_add(energy, 0, c * e)


@wp.kernel
def anchors(x: wp.array(dtype=wp.vec2), a: wp.array(dtype=wp.vec2), energy: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - a[i]
    wp.atomic_add(energy, 0, 0.5 * wp.dot(d, d))


ANCHORS = np.array([[0.0, 0.0], [0.1, 0.05], [0.5, 0.5], [0.55, 0.4], [-0.4, 0.3], [-0.35, 0.25]])
PARAMS0 = ANCHORS.ravel() + 0.01


class Layout:
    def __init__(self):
        self.a = wp.array(ANCHORS.astype(np.float32), dtype=wp.vec2)

    def energy(self, p):
        x = wp.array(np.asarray(p, dtype=np.float32).reshape(N, 2), dtype=wp.vec2, requires_grad=True)
        e = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(anchors, dim=N, inputs=[x, self.a], outputs=[e])
            wp.launch(repulsion, dim=(N, N), inputs=[x, C_REP], outputs=[e])
        tape.backward(e)
        return float(e.numpy()[0]), x.grad.numpy().ravel().astype(np.float64)


def evaluate(p):
    return Layout().energy(p)


if __name__ == "__main__":
    lay = Layout()
    p = PARAMS0.copy()
    for it in range(20):
        e, g = lay.energy(p)
        if not np.all(np.isfinite(g)):
            print(f"iter {it:2d} energy {e:.5f}: gradient not finite, stopping")
            break
        p -= 0.1 * g
    print("layout", np.round(p.reshape(N, 2), 3).tolist())
