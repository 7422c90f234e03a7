"""Photometric relighting: estimate the direction of a distant light and the albedo
of a matte sphere from a display-referred (gamma-encoded) photograph."""
import numpy as np
import warp as wp

from _srgb import encode_srgb

RES = 16


@wp.kernel
def render(light: wp.array(dtype=float), img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    x = 2.0 * (float(j) + 0.5) / float(RES) - 1.0
    y = 2.0 * (float(i) + 0.5) / float(RES) - 1.0
    r2 = x * x + y * y
    c = float(0.0)
    if r2 < 1.0:
        n = wp.vec3(x, y, wp.sqrt(1.0 - r2))
        l = wp.normalize(wp.vec3(light[0], light[1], 1.0))
        c = light[2] * wp.dot(n, l)
    img[i, j] = encode_srgb(c)


@wp.kernel
def photo_loss(img: wp.array2d(dtype=float), photo: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = img[i, j] - photo[i, j]
    wp.atomic_add(loss, 0, d * d)


def photograph(light):
    img = wp.zeros((RES, RES), dtype=float)
    wp.launch(render, dim=(RES, RES), inputs=[wp.array(light, dtype=float)], outputs=[img])
    return img.numpy().copy()


PHOTO = photograph(np.array([0.8, -0.5, 0.9], dtype=np.float32))
PARAMS0 = [0.6, -0.3, 0.7]


def evaluate(p):
    light = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    img = wp.zeros((RES, RES), dtype=float, requires_grad=True)
    photo = wp.array(PHOTO, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(render, dim=(RES, RES), inputs=[light], outputs=[img])
        wp.launch(photo_loss, dim=(RES, RES), inputs=[img, photo], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), light.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = evaluate(p)
        if not np.all(np.isfinite(g)):
            print(f"iter {it}: non-finite gradient {g}")
            break
        p -= 0.01 * g
    print(f"photo loss {l:.4f} light ({p[0]:.3f}, {p[1]:.3f}) albedo {p[2]:.3f}")
