"""Gather-style Gaussian splat renderer: gradient of the image error w.r.t. the splat centres,
keeping the image gradient around for a per-pixel saliency map."""

import numpy as np
import warp as wp

RES = 10
SIGMA = 1.5
COLORS = np.array([[1.0, 0.2, 0.1], [0.1, 0.9, 0.3], [0.2, 0.3, 1.0]], dtype=np.float32)
TRUE_PTS = np.array([[3.0, 3.5], [6.5, 4.0], [5.0, 7.0]], dtype=np.float32)
PARAMS0 = np.array([3.6, 3.0, 6.0, 4.8, 5.5, 6.2])


@wp.kernel
def render(pts: wp.array(dtype=wp.vec2), colors: wp.array(dtype=wp.vec3), n: int, sigma: float, image: wp.array2d(dtype=wp.vec3)):
    i, j = wp.tid()
    p = wp.vec2(float(j) + 0.5, float(i) + 0.5)
    c = wp.vec3(0.0)
    for k in range(n):
        d = p - pts[k]
        c += colors[k] * wp.exp(-wp.dot(d, d) / (2.0 * sigma * sigma))
    image[i, j] = c


@wp.kernel
def l2(image: wp.array2d(dtype=wp.vec3), target: wp.array2d(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = image[i, j] - target[i, j]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def draw(pts, colors, image):
    wp.launch(render, dim=image.shape, inputs=[pts, colors, pts.shape[0], SIGMA], outputs=[image])


def make_target(colors):
    target = wp.zeros((RES, RES), dtype=wp.vec3)
    draw(wp.array(TRUE_PTS, dtype=wp.vec2), colors, target)
    return target


def evaluate(p):
    colors = wp.array(COLORS, dtype=wp.vec3)
    target = make_target(colors)
    pts = wp.array(p.reshape(-1, 2).astype(np.float32), dtype=wp.vec2, requires_grad=True)
    image = wp.zeros((RES, RES), dtype=wp.vec3, requires_grad=True, retain_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        draw(pts, colors, image)
        coverage = float(np.abs(image.numpy()).sum(axis=-1).mean())
        draw(pts, colors, image)  # expect: retain_grad
        wp.launch(l2, dim=(RES, RES), inputs=[image, target], outputs=[loss])
    tape.backward(loss)
    saliency = np.linalg.norm(image.grad.numpy(), axis=-1)
    print(f"coverage {coverage:.3f}  peak saliency {saliency.max():.3f}")
    return float(loss.numpy()[0]), pts.grad.numpy().ravel().astype(np.float64)


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"image error {loss:.5f}  d/dcentres {np.round(grad, 4)}")
