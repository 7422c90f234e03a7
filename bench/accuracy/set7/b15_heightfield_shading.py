"""Shape-from-shading on a heightfield: fit the light direction to an observed Lambertian image."""
import numpy as np
import warp as wp

G = 12


@wp.func
def surface_normal(hx: float, hy: float):
    n = wp.vec3(-hx, -hy, 1.0)
    return wp.normalize(n)


@wp.func
def facing_light(l: wp.vec3):
    # keep the light above the horizon
    l[2] = wp.max(l[2], 0.05)  # expect: component_reassign
    return wp.normalize(l)


@wp.kernel
def shade(h: wp.array2d(dtype=float), light: wp.array(dtype=wp.vec3), img: wp.array2d(dtype=float)):
    y, x = wp.tid()
    xp, xm = wp.min(x + 1, G - 1), wp.max(x - 1, 0)
    yp, ym = wp.min(y + 1, G - 1), wp.max(y - 1, 0)
    n = surface_normal(0.5 * (h[y, xp] - h[y, xm]), 0.5 * (h[yp, x] - h[ym, x]))
    img[y, x] = wp.max(wp.dot(n, facing_light(light[0])), 0.0)


@wp.kernel
def photo_loss(img: wp.array2d(dtype=float), obs: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    y, x = wp.tid()
    r = img[y, x] - obs[y, x]
    wp.atomic_add(loss, 0, r * r)


yy, xx = np.mgrid[0:G, 0:G] / G
HEIGHT = (0.8 * np.sin(3 * xx) * np.cos(2 * yy)).astype(np.float32)
l_true = np.array([0.4, 0.3, 0.85]); l_true /= np.linalg.norm(l_true)
gy, gx = np.gradient(HEIGHT)
nrm = np.stack([-gx, -gy, np.ones_like(gx)], -1); nrm /= np.linalg.norm(nrm, axis=-1, keepdims=True)
OBS = np.maximum(nrm @ l_true, 0).astype(np.float32)
PARAMS0 = np.array([0.1, 0.5, 0.7], dtype=np.float32)


def evaluate(l_np):
    light = wp.array([l_np], dtype=wp.vec3, requires_grad=True)
    img = wp.zeros((G, G), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(shade, dim=(G, G), inputs=[wp.array(HEIGHT), light], outputs=[img])
        wp.launch(photo_loss, dim=(G, G), inputs=[img, wp.array(OBS)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), light.grad.numpy()[0].copy()


if __name__ == "__main__":
    print(evaluate(PARAMS0))
