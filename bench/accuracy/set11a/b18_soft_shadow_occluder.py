"""Inverse rendering of a soft shadow: a sphere hovers over a diffuse ground plane
lit by a directional light; recover the light direction and the sphere's
radius and height from a photo of the ground."""
import numpy as np
import warp as wp

RES = 16
SOFT = 0.05


@wp.kernel
def shade_ground(params: wp.array(dtype=float), img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    p = wp.vec3(2.0 * (float(j) + 0.5) / float(RES) - 1.0, 2.0 * (float(i) + 0.5) / float(RES) - 1.0, 0.0)
    L = wp.normalize(wp.vec3(params[0], params[1], 1.0))
    c = 0.2 + 0.8 * L[2]
    img[i, j] = c
    centre = wp.vec3(0.0, 0.0, params[3])
    q = centre - p
    along = wp.dot(q, L)
    dist = wp.length(q - along * L)
    vis = 1.0 / (1.0 + wp.exp(-(dist - params[2]) / SOFT))
    img[i, j] *= vis  # expect: inplace_op


@wp.kernel
def photo_loss(img: wp.array2d(dtype=float), photo: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = img[i, j] - photo[i, j]
    wp.atomic_add(loss, 0, d * d)


def photograph(p):
    img = wp.zeros((RES, RES), dtype=float)
    wp.launch(shade_ground, dim=(RES, RES), inputs=[wp.array(p, dtype=float)], outputs=[img])
    return img.numpy().copy()


PHOTO = photograph(np.array([0.3, -0.2, 0.35, 0.6], dtype=np.float32))
PARAMS0 = [0.2, -0.1, 0.3, 0.7]


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    img = wp.zeros((RES, RES), dtype=float, requires_grad=True)
    photo = wp.array(PHOTO, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(shade_ground, dim=(RES, RES), inputs=[params], outputs=[img])
        wp.launch(photo_loss, dim=(RES, RES), inputs=[img, photo], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.001 * g
    print(f"photo loss {l:.4f} light ({p[0]:.3f}, {p[1]:.3f}) radius {p[2]:.3f} height {p[3]:.3f}")
