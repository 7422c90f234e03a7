"""Refine a camera's translation so projected landmarks land on their detections (pinhole with a near clamp).

tapewatch-test: --check-launches
"""

import numpy as np
import warp as wp

FOCAL = 400.0


@wp.func
def project(pc: wp.vec3, near: float):
    pc[2] = wp.max(pc[2], near)  # expect: TW302  expect: TW404
    return wp.vec2(FOCAL * pc[0] / pc[2], FOCAL * pc[1] / pc[2])


@wp.kernel
def reprojection(points: wp.array(dtype=wp.vec3), seen: wp.array(dtype=wp.vec2), t: wp.array(dtype=wp.vec3),
                 near: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    uv = project(points[i] + t[0], near)
    r = (uv - seen[i]) / FOCAL
    wp.atomic_add(loss, 0, wp.dot(r, r))


class PoseFit:
    def __init__(self, points, seen):
        self.points = wp.array(points, dtype=wp.vec3)
        self.seen = wp.array(seen, dtype=wp.vec2)
        self.t = wp.array([wp.vec3(0.1, -0.05, 3.0)], dtype=wp.vec3, requires_grad=True)
        self.loss = wp.zeros(1, dtype=float, requires_grad=True)

    def step(self, lr):
        self.loss.zero_()
        tape = wp.Tape()
        with tape:
            wp.launch(reprojection, dim=self.points.shape[0], inputs=[self.points, self.seen, self.t, 0.05],
                      outputs=[self.loss])
        tape.backward(self.loss)
        self.t.assign(self.t.numpy() - lr * self.t.grad.numpy())
        tape.zero()
        return float(self.loss.numpy()[0])


def main():
    rng = np.random.default_rng(5)
    points = np.concatenate([rng.uniform(-1, 1, (16, 2)), rng.uniform(0.5, 2.0, (16, 1))], axis=1).astype(np.float32)
    shifted = points + np.array([0.0, 0.0, 3.2], dtype=np.float32)
    seen = (FOCAL * shifted[:, :2] / shifted[:, 2:]).astype(np.float32)
    fit = PoseFit(points, seen)
    for _ in range(3):
        loss = fit.step(0.5)
    print("loss", loss, "t", fit.t.numpy())


if __name__ == "__main__":
    main()
