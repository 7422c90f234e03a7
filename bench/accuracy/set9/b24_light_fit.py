"""Fit a directional light (intensity and direction) to a tone-mapped photo of a half-Lambert sphere."""

import numpy as np
import warp as wp

import _postfx

RES = 12
ALBEDO = wp.constant(wp.vec3(0.8, 0.6, 0.5))
EXPOSURE = 1.2
GAMMA = 2.2
TRUE_LIGHT = np.array([3.0, 0.4, 0.7, 0.6])
PARAMS0 = np.array([2.0, 0.1, 0.9, 0.4])


@wp.kernel
def shade_sphere(light: wp.array(dtype=float), hdr: wp.array2d(dtype=wp.vec3)):
    i, j = wp.tid()
    u = (float(j) + 0.5) / float(RES) * 2.0 - 1.0
    v = 1.0 - (float(i) + 0.5) / float(RES) * 2.0
    r2 = u * u + v * v
    c = wp.vec3(0.02)
    if r2 < 1.0:
        n = wp.vec3(u, v, wp.sqrt(1.0 - r2))
        l = wp.normalize(wp.vec3(light[1], light[2], light[3]))
        wrap = 0.5 * (wp.dot(n, l) + 1.0)  # half-Lambert: smooth across the terminator
        c = c + ALBEDO * (light[0] * wrap * wrap)
    hdr[i, j] = c


@wp.kernel
def photo_loss(ldr: wp.array2d(dtype=wp.vec3), photo: wp.array2d(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = ldr[i, j] - photo[i, j]
    wp.atomic_add(loss, 0, wp.dot(d, d))


def render(light, hdr, ldr):
    wp.launch(shade_sphere, dim=(RES, RES), inputs=[light], outputs=[hdr])
    wp.launch(_postfx.tonemap, dim=(RES, RES), inputs=[hdr, EXPOSURE, GAMMA], outputs=[ldr])


def take_photo():
    hdr = wp.zeros((RES, RES), dtype=wp.vec3)
    ldr = wp.zeros((RES, RES), dtype=wp.vec3)
    render(wp.array(TRUE_LIGHT.astype(np.float32), dtype=float), hdr, ldr)
    return ldr


def evaluate(p):
    light = wp.array(p.astype(np.float32), dtype=float, requires_grad=True)
    hdr = wp.zeros((RES, RES), dtype=wp.vec3, requires_grad=True)
    ldr = wp.zeros((RES, RES), dtype=wp.vec3, requires_grad=True)
    photo = take_photo()
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        render(light, hdr, ldr)
        wp.launch(photo_loss, dim=(RES, RES), inputs=[ldr, photo], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), light.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    loss, grad = evaluate(PARAMS0)
    print(f"photo loss {loss:.5f}  d/d(intensity, direction) {np.round(grad, 4)}")
