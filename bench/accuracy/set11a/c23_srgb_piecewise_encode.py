# correct: the sRGB encoder uses wp.where around wp.pow, which evaluates and differentiates both branches, but the pow argument is clamped to the toe threshold, so the unused branch stays finite.
"""Albedo-and-light estimation from an 8-bit style sRGB photo of a relief tile:
the renderer applies the exact piecewise sRGB transfer function."""
import numpy as np
import warp as wp

RES = 14
TOE = 0.0031308


@wp.func
def linear_to_srgb(c: float):
    x = wp.max(c, 0.0)
    return wp.where(x <= TOE, 12.92 * x, 1.055 * wp.pow(wp.max(x, TOE), 1.0 / 2.4) - 0.055)


@wp.kernel
def render(height: wp.array2d(dtype=float), params: wp.array(dtype=float), img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    hx = height[i, wp.min(j + 1, RES - 1)] - height[i, wp.max(j - 1, 0)]
    hy = height[wp.min(i + 1, RES - 1), j] - height[wp.max(i - 1, 0), j]
    n = wp.normalize(wp.vec3(-hx, -hy, 0.2))
    l = wp.normalize(wp.vec3(params[0], params[1], 0.6))
    img[i, j] = linear_to_srgb(params[2] * wp.dot(n, l))


@wp.kernel
def photo_loss(img: wp.array2d(dtype=float), photo: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    e = img[i, j] - photo[i, j]
    wp.atomic_add(loss, 0, e * e)


def relief():
    yy, xx = np.mgrid[0:RES, 0:RES] / (RES - 1.0)
    return (0.4 * np.sin(2 * np.pi * xx) * np.cos(np.pi * yy)).astype(np.float32)


HEIGHT = relief()


def photograph(params):
    img = wp.zeros((RES, RES), dtype=float)
    wp.launch(render, dim=(RES, RES), inputs=[wp.array(HEIGHT, dtype=float), wp.array(params, dtype=float)], outputs=[img])
    return img.numpy().copy()


PHOTO = photograph(np.array([0.7, -0.4, 0.85], dtype=np.float32))
PARAMS0 = [0.5, -0.2, 0.7]


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    img = wp.zeros((RES, RES), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(render, dim=(RES, RES), inputs=[wp.array(HEIGHT, dtype=float), params], outputs=[img])
        wp.launch(photo_loss, dim=(RES, RES), inputs=[img, wp.array(PHOTO, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.01 * g
    print(f"photo loss {l:.3e} light ({p[0]:.3f}, {p[1]:.3f}) albedo {p[2]:.3f}")
    print("black pixels:", int((PHOTO == 0).sum()))
