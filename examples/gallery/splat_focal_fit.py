"""Estimate a pinhole focal length from the screen-space spread of visible particles.

Particles in front of the camera are compacted into a dense buffer before splatting.
"""

import numpy as np
import warp as wp


@wp.kernel
def project_visible(
    points: wp.array(dtype=wp.vec3),
    focal: wp.array(dtype=float),
    near: float,
    count: wp.array(dtype=int),
    screen: wp.array(dtype=wp.vec2),
):
    i = wp.tid()
    p = points[i]
    if p[2] > near:
        slot = wp.atomic_add(count, 0, 1)  # expect: TW206
        screen[slot] = wp.vec2(focal[0] * p[0] / p[2], focal[0] * p[1] / p[2])


@wp.kernel
def spread_loss(
    screen: wp.array(dtype=wp.vec2),
    count: wp.array(dtype=int),
    target_spread: float,
    loss: wp.array(dtype=float),
):
    k = wp.tid()
    if k < count[0]:
        s = screen[k]
        r2 = wp.dot(s, s)
        d = r2 - target_spread
        wp.atomic_add(loss, 0, d * d / float(count[0]))


class SplatCamera:
    def __init__(self, points_np, focal=0.8, near=0.5):
        n = points_np.shape[0]
        self.buffers = {
            "points": wp.array(points_np, dtype=wp.vec3),
            "count": wp.zeros(1, dtype=int),
            "screen": wp.zeros(n, dtype=wp.vec2, requires_grad=True),
            "loss": wp.zeros(1, dtype=float, requires_grad=True),
        }
        self.focal = wp.array([focal], dtype=float, requires_grad=True)
        self.near = near

    def forward(self, target_spread):
        b = self.buffers
        n = b["points"].shape[0]
        b["count"].zero_()
        b["loss"].zero_()
        wp.launch(project_visible, dim=n, inputs=[b["points"], self.focal, self.near, b["count"]], outputs=[b["screen"]])
        wp.launch(spread_loss, dim=n, inputs=[b["screen"], b["count"], target_spread], outputs=[b["loss"]])
        return b["loss"]


def sample_points(n=256, seed=11):
    rng = np.random.default_rng(seed)
    pts = np.empty((n, 3), dtype=np.float32)
    pts[:, 0] = rng.uniform(-1.0, 1.0, n)
    pts[:, 1] = rng.uniform(-0.6, 0.6, n)
    pts[:, 2] = rng.uniform(-1.0, 4.0, n)
    return pts


def main():
    cam = SplatCamera(sample_points())
    lr = 0.02
    for it in range(30):
        tape = wp.Tape()
        with tape:
            loss = cam.forward(target_spread=0.35)
        tape.backward(loss)
        g = cam.focal.grad.numpy()[0]
        if it % 5 == 0:
            print(f"iter {it:2d} visible {cam.buffers['count'].numpy()[0]} loss {loss.numpy()[0]:.5f} focal {cam.focal.numpy()[0]:.4f} grad {g:.5f}")
        cam.focal.assign(cam.focal.numpy() - lr * g)
        tape.zero()

    print("estimated focal length", cam.focal.numpy()[0])


if __name__ == "__main__":
    main()
