"""Procedural wood-grain texture and a 5-tap box blur (the camera's defocus), 64 x 64."""
import numpy as np
import warp as wp

RES = 64


@wp.kernel
def wood_grain(prm: wp.array(dtype=float), tex: wp.array2d(dtype=float)):
    # prm: ring frequency [rings per texture], ring contrast, grain tilt
    i, j = wp.tid()
    u = float(i) / float(RES) - 0.5
    v = float(j) / float(RES) - 0.5
    r = wp.sqrt(u * u + (v + prm[2] * u) * (v + prm[2] * u) + 0.01)
    tex[i, j] = 0.5 + prm[1] * wp.sin(2.0 * wp.pi * prm[0] * r)


@wp.kernel
def box_blur(src: wp.array2d(dtype=float), dst: wp.array2d(dtype=float)):
    i, j = wp.tid()
    s = float(0.0)
    for k in range(5):
        jj = wp.clamp(j + k - 2, 0, RES - 1)
        s += src[i, jj]
    dst[i, j] = s / 5.0


@wp.kernel
def photo_error(img: wp.array2d(dtype=float), photo: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = img[i, j] - photo[i, j]
    wp.atomic_add(loss, 0, d * d)


def photo(true_prm=(7.3, 0.32, 0.18)):
    tex = wp.zeros((RES, RES), dtype=float)
    out = wp.zeros((RES, RES), dtype=float)
    wp.launch(wood_grain, dim=(RES, RES), inputs=[wp.array(true_prm, dtype=float)], outputs=[tex])
    wp.launch(box_blur, dim=(RES, RES), inputs=[tex], outputs=[out])
    return out.numpy()
