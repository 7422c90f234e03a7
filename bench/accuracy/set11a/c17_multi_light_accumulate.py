# correct: each light's launch updates the image in place with img[i, j] += ..., which is an accumulation whose adjoint needs no overwritten value.
"""Multi-light relighting of a diffuse plane with a normal map: one launch per
point light adds its contribution to the image; fit the three light
intensities and the height of the lights."""
import numpy as np
import warp as wp

RES = 14
LIGHT_XY = [(-0.6, -0.5), (0.7, -0.2), (0.0, 0.7)]


@wp.kernel
def add_light(normals: wp.array2d(dtype=wp.vec3), params: wp.array(dtype=float), which: int, lx: float, ly: float,
              img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    p = wp.vec3(2.0 * (float(j) + 0.5) / float(RES) - 1.0, 2.0 * (float(i) + 0.5) / float(RES) - 1.0, 0.0)
    d = wp.vec3(lx, ly, params[3]) - p
    r2 = wp.dot(d, d)
    ndl = wp.dot(normals[i, j], d) / wp.sqrt(r2)
    img[i, j] += params[which] * (0.5 * ndl + 0.5) / r2


@wp.kernel
def photo_loss(img: wp.array2d(dtype=float), photo: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    e = img[i, j] - photo[i, j]
    wp.atomic_add(loss, 0, e * e)


def normal_map():
    yy, xx = np.mgrid[0:RES, 0:RES] / (RES - 1.0)
    n = np.stack([0.3 * np.sin(7 * xx), 0.3 * np.cos(5 * yy), np.ones_like(xx)], -1)
    return (n / np.linalg.norm(n, axis=-1, keepdims=True)).astype(np.float32)


NORMALS = normal_map()


def render(params, requires_grad=False):
    img = wp.zeros((RES, RES), dtype=float, requires_grad=requires_grad)
    normals = wp.array(NORMALS, dtype=wp.vec3)
    for k, (lx, ly) in enumerate(LIGHT_XY):
        wp.launch(add_light, dim=(RES, RES), inputs=[normals, params, k, lx, ly], outputs=[img])
    return img


PHOTO = render(wp.array([0.8, 0.4, 0.6, 1.2], dtype=float)).numpy().copy()
PARAMS0 = [0.5, 0.5, 0.5, 1.0]


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        img = render(params, requires_grad=True)
        wp.launch(photo_loss, dim=(RES, RES), inputs=[img, wp.array(PHOTO, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(60):
        l, g = evaluate(p)
        p -= 0.002 * g
    print(f"photo loss {l:.3e} intensities {p[:3].round(3)} light height {p[3]:.3f}")
