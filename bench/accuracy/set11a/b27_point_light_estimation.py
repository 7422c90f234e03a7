"""Estimate the position of a point light from a photo of a glossy sphere
(Blinn-Phong with inverse-square falloff)."""
import numpy as np
import warp as wp

from _shading import blinn_phong, safe_normalize

RES = 16
KD = 0.7
KS = 0.3
SHININESS = 12.0


@wp.kernel
def render(light: wp.array(dtype=wp.vec3), img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    x = 2.2 * ((float(j) + 0.5) / float(RES) - 0.5)
    y = 2.2 * ((float(i) + 0.5) / float(RES) - 0.5)
    r2 = x * x + y * y
    c = float(0.0)
    if r2 < 1.0:
        n = wp.vec3(x, y, wp.sqrt(1.0 - r2))
        p = n + wp.vec3(0.0, 0.0, -3.0)
        d = light[0] - p
        l = safe_normalize(d)
        falloff = 4.0 / wp.dot(d, d)
        c = falloff * blinn_phong(n, l, wp.vec3(0.0, 0.0, 1.0), KD, KS, SHININESS)
    img[i, j] = c


@wp.kernel
def photo_loss(img: wp.array2d(dtype=float), photo: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    e = img[i, j] - photo[i, j]
    wp.atomic_add(loss, 0, e * e)


def photograph(light):
    img = wp.zeros((RES, RES), dtype=float)
    wp.launch(render, dim=(RES, RES), inputs=[wp.array([light], dtype=wp.vec3)], outputs=[img])
    return img.numpy().copy()


PHOTO = photograph((1.0, 0.8, -0.5))
PARAMS0 = [0.7, 0.5, -0.8]


def evaluate(p):
    light = wp.array([np.asarray(p, dtype=np.float32)], dtype=wp.vec3, requires_grad=True)
    img = wp.zeros((RES, RES), dtype=float, requires_grad=True)
    photo = wp.array(PHOTO, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(render, dim=(RES, RES), inputs=[light], outputs=[img])
        wp.launch(photo_loss, dim=(RES, RES), inputs=[img, photo], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), light.grad.numpy()[0].astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.02 * g
    print(f"photo loss {l:.3e} light at {p.round(3)}")
