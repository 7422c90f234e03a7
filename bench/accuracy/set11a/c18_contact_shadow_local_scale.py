# correct: the shading is multiplied in place by the occlusion factor, but with c *= occ on a local variable, stored to the image once afterwards.
"""Contact shadow of a sphere resting above a floor under a sky light: the
analytic sphere ambient-occlusion term darkens the floor; recover the sphere's
position, radius and the sky intensity from a photo."""
import numpy as np
import warp as wp

RES = 16


@wp.kernel
def shade_floor(params: wp.array(dtype=float), img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    p = wp.vec3(2.0 * (float(j) + 0.5) / float(RES) - 1.0, 2.0 * (float(i) + 0.5) / float(RES) - 1.0, 0.0)
    centre = wp.vec3(params[0], params[1], params[2] + 0.05)
    d = centre - p
    dist2 = wp.dot(d, d)
    cos_t = d[2] / wp.sqrt(dist2)
    c = params[3]
    occ = 1.0 - cos_t * params[2] * params[2] / dist2
    c *= occ
    img[i, j] = c


@wp.kernel
def photo_loss(img: wp.array2d(dtype=float), photo: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    e = img[i, j] - photo[i, j]
    wp.atomic_add(loss, 0, e * e)


def photograph(p):
    img = wp.zeros((RES, RES), dtype=float)
    wp.launch(shade_floor, dim=(RES, RES), inputs=[wp.array(p, dtype=float)], outputs=[img])
    return img.numpy().copy()


PHOTO = photograph(np.array([0.15, -0.1, 0.4, 0.9], dtype=np.float32))
PARAMS0 = [0.0, 0.0, 0.35, 0.8]


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    img = wp.zeros((RES, RES), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(shade_floor, dim=(RES, RES), inputs=[params], outputs=[img])
        wp.launch(photo_loss, dim=(RES, RES), inputs=[img, wp.array(PHOTO, dtype=float)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(60):
        l, g = evaluate(p)
        p -= 0.003 * g
    print(f"photo loss {l:.3e} sphere ({p[0]:.3f}, {p[1]:.3f}) radius {p[2]:.3f} sky {p[3]:.3f}")
