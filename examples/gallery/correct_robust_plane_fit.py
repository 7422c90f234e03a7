"""Fit a plane z = a x + b y + c to lidar returns contaminated by outliers, with a pseudo-Huber penalty."""

import numpy as np
import warp as wp

from _robust import pseudo_huber


@wp.kernel
def plane_penalty(
    points: wp.array(dtype=wp.vec3),
    plane: wp.array(dtype=float),
    delta: wp.array(dtype=float),
    loss: wp.array(dtype=float),
):
    i = wp.tid()
    p = points[i]
    r = p[2] - (plane[0] * p[0] + plane[1] * p[1] + plane[2])
    wp.atomic_add(loss, 0, pseudo_huber(r, delta[0]))


def lidar_returns(n=300, seed=21):
    rng = np.random.default_rng(seed)
    xy = rng.uniform(-5.0, 5.0, (n, 2))
    z = 0.3 * xy[:, 0] - 0.1 * xy[:, 1] + 1.5 + rng.normal(0.0, 0.05, n)
    out = rng.random(n) < 0.15
    z[out] += rng.uniform(2.0, 6.0, out.sum())
    return np.column_stack([xy, z]).astype(np.float32)


def main():
    points = wp.array(lidar_returns(), dtype=wp.vec3)
    plane = wp.zeros(3, dtype=float, requires_grad=True)
    delta = wp.array([0.5], dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)

    lr = 5e-4
    for it in range(400):
        loss.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(plane_penalty, dim=points.shape[0], inputs=[points, plane, delta], outputs=[loss])
        tape.backward(loss)
        plane.assign(plane.numpy() - lr * plane.grad.numpy())
        if it % 80 == 0:
            print(f"iter {it:3d} loss {loss.numpy()[0]:.4f} plane {np.round(plane.numpy(), 4)} dL/ddelta {delta.grad.numpy()[0]:.4f}")
        tape.zero()

    print("plane a, b, c =", np.round(plane.numpy(), 4), "(true 0.3, -0.1, 1.5)")


if __name__ == "__main__":
    main()
