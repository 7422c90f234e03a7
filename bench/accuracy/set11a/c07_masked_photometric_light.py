# correct: the per-pixel weight array in the loss has no requires_grad, but it is a constant validity mask loaded as data, not an intermediate computed from the parameters.
"""Light calibration from a masked photo of a known relief: fit the light's
direction and intensity, ignoring specular highlights and background pixels
through a per-pixel validity weight."""
import numpy as np
import warp as wp

RES = 14


@wp.kernel
def relief_normals(height: wp.array2d(dtype=float), normals: wp.array2d(dtype=wp.vec3)):
    i, j = wp.tid()
    hx = height[i, wp.min(j + 1, RES - 1)] - height[i, wp.max(j - 1, 0)]
    hy = height[wp.min(i + 1, RES - 1), j] - height[wp.max(i - 1, 0), j]
    normals[i, j] = wp.normalize(wp.vec3(-hx, -hy, 0.3))


@wp.kernel
def shade(normals: wp.array2d(dtype=wp.vec3), light: wp.array(dtype=float), img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    l = wp.normalize(wp.vec3(light[0], light[1], 1.0))
    x = light[2] * (0.5 * wp.dot(normals[i, j], l) + 0.5)
    img[i, j] = x * x


@wp.kernel
def masked_loss(img: wp.array2d(dtype=float), photo: wp.array2d(dtype=float), weight: wp.array2d(dtype=float),
                loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = img[i, j] - photo[i, j]
    wp.atomic_add(loss, 0, weight[i, j] * d * d)


def relief():
    yy, xx = np.mgrid[0:RES, 0:RES] / (RES - 1.0) - 0.5
    return (0.3 * np.exp(-(xx ** 2 + yy ** 2) / 0.05) + 0.1 * np.sin(6 * xx)).astype(np.float32)


HEIGHT = relief()
WEIGHT = np.ones((RES, RES), dtype=np.float32)
WEIGHT[:2, :] = 0.0
WEIGHT[6:8, 6:8] = 0.0
WEIGHT[:, -1] = 0.5


def render(light, requires_grad=False):
    normals = wp.zeros((RES, RES), dtype=wp.vec3)
    img = wp.zeros((RES, RES), dtype=float, requires_grad=requires_grad)
    wp.launch(relief_normals, dim=(RES, RES), inputs=[wp.array(HEIGHT, dtype=float)], outputs=[normals])
    wp.launch(shade, dim=(RES, RES), inputs=[normals, light], outputs=[img])
    return img


PHOTO = render(wp.array([0.5, -0.3, 1.2], dtype=float)).numpy().copy()
PARAMS0 = [0.3, -0.1, 1.0]


def evaluate(p):
    light = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    weight = wp.array(WEIGHT, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        img = render(light, requires_grad=True)
        wp.launch(masked_loss, dim=(RES, RES), inputs=[img, wp.array(PHOTO, dtype=float), weight], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), light.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.001 * g
    print(f"masked loss {l:.3e} light ({p[0]:.3f}, {p[1]:.3f}) intensity {p[2]:.3f}")
