"""Fit a plane z = a x + b y + c to a scan with outliers.

Per-point cost: Charbonnier(r) + small quadratic term that keeps the
problem strongly convex near the optimum.
"""

import numpy as np
import warp as wp

from _robust import charbonnier

wp.config.quiet = True

N = 30
EPS = 0.05
QUAD = 0.1


@wp.kernel
def plane_cost(pts: wp.array(dtype=wp.vec3), plane: wp.array(dtype=float), inv_n: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    p = pts[i]
    r = plane[0] * p[0] + plane[1] * p[1] + plane[2] - p[2]
    wp.atomic_add(loss, 0, (charbonnier(r, EPS) + QUAD * r * r) * inv_n)


def scan():
    rng = np.random.default_rng(71)
    xy = rng.uniform(-1, 1, (N, 2))
    z = 0.4 * xy[:, 0] - 0.7 * xy[:, 1] + 0.2 + 0.01 * rng.normal(size=N)
    z[::7] += rng.uniform(1.0, 2.0, len(z[::7]))  # outliers
    return wp.array(np.c_[xy, z].astype(np.float32), dtype=wp.vec3)


def cost_and_grad(p, pts):
    plane = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(plane_cost, dim=N, inputs=[pts, plane, 1.0 / N], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), plane.grad.numpy().astype(np.float64)


PARAMS0 = np.array([0.0, 0.0, 0.0])


def evaluate(p):
    return cost_and_grad(p, scan())


if __name__ == "__main__":
    pts = scan()
    p = PARAMS0.copy()
    for it in range(60):
        c, g = cost_and_grad(p, pts)
        p -= 0.5 * g
        if it % 20 == 0:
            print(f"iter {it:2d} cost {c:.5f}")
    print("plane a, b, c =", np.round(p, 4))
