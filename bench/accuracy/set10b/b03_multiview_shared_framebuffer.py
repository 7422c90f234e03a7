"""Multi-view 2-D Gaussian splat fitting (inverse rendering).

A handful of isotropic Gaussians (centre, log-scale, amplitude) are rendered
through two known affine cameras and fitted to both target images at once.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

RES = 16
N_GAUSS = 5


@wp.struct
class Camera:
    A: wp.mat22
    t: wp.vec2
    zoom: float


@wp.kernel
def splat(
    centers: wp.array(dtype=wp.vec2),
    log_scale: wp.array(dtype=float),
    amp: wp.array(dtype=float),
    cam: Camera,
    img: wp.array2d(dtype=float),
):
    k, py, px = wp.tid()
    c = cam.A * centers[k] + cam.t
    s = wp.exp(log_scale[k]) * cam.zoom
    pix = wp.vec2(float(px) + 0.5, float(py) + 0.5) / float(RES)
    d = pix - c
    w = amp[k] * wp.exp(-0.5 * wp.dot(d, d) / (s * s))
    wp.atomic_add(img, py, px, w)


@wp.kernel
def image_l2(img: wp.array2d(dtype=float), target: wp.array2d(dtype=float), weight: float, loss: wp.array(dtype=float)):
    y, x = wp.tid()
    r = img[y, x] - target[y, x]
    wp.atomic_add(loss, 0, weight * r * r)


def make_camera(angle, shift, zoom):
    c, s = np.cos(angle), np.sin(angle)
    cam = Camera()
    cam.A = wp.mat22(c, -s, s, c)
    cam.t = wp.vec2(*shift)
    cam.zoom = zoom
    return cam


CAMERAS = [make_camera(0.0, (0.0, 0.0), 1.0), make_camera(0.6, (0.15, -0.2), 1.2)]


class SplatRenderer:
    def __init__(self):
        self.framebuffer = wp.zeros((RES, RES), dtype=float, requires_grad=True)

    def render(self, centers, log_scale, amp, cam):
        img = self.framebuffer  # expect: overwrite
        img.zero_()
        wp.launch(splat, dim=(N_GAUSS, RES, RES), inputs=[centers, log_scale, amp, cam], outputs=[img])
        return img


def gaussians_from_flat(p):
    p = np.asarray(p, dtype=np.float32).reshape(N_GAUSS, 4)
    centers = wp.array(p[:, 0:2], dtype=wp.vec2, requires_grad=True)
    log_scale = wp.array(p[:, 2], dtype=float, requires_grad=True)
    amp = wp.array(p[:, 3], dtype=float, requires_grad=True)
    return centers, log_scale, amp


def flat_from_grads(centers, log_scale, amp):
    g = np.concatenate([centers.grad.numpy(), log_scale.grad.numpy()[:, None], amp.grad.numpy()[:, None]], axis=1)
    return g.ravel().astype(np.float64)


rng = np.random.default_rng(7)
TRUE = np.concatenate(
    [rng.uniform(0.25, 0.75, (N_GAUSS, 2)), np.log(rng.uniform(0.06, 0.12, (N_GAUSS, 1))), rng.uniform(0.5, 1.0, (N_GAUSS, 1))],
    axis=1,
)


def render_targets():
    targets = []
    g = gaussians_from_flat(TRUE)
    for cam in CAMERAS:
        img = wp.zeros((RES, RES), dtype=float)
        wp.launch(splat, dim=(N_GAUSS, RES, RES), inputs=[*g, cam], outputs=[img])
        targets.append(img)
    return targets


TARGETS = render_targets()
PARAMS0 = (TRUE + np.concatenate([rng.normal(0, 0.04, (N_GAUSS, 2)), rng.normal(0, 0.2, (N_GAUSS, 1)), rng.normal(0, 0.2, (N_GAUSS, 1))], axis=1)).ravel()
_renderer = SplatRenderer()


def evaluate(p, renderer=_renderer):
    centers, log_scale, amp = gaussians_from_flat(p)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for cam, target in zip(CAMERAS, TARGETS):
            img = renderer.render(centers, log_scale, amp, cam)
            wp.launch(image_l2, dim=(RES, RES), inputs=[img, target, 1.0 / (RES * RES)], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), flat_from_grads(centers, log_scale, amp)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(40):
        loss, g = evaluate(p)
        p -= 0.02 * g / (np.linalg.norm(g) + 1e-8)
        if it % 10 == 0:
            print(f"iter {it:2d} loss {loss:.6f}")
    print("final loss", evaluate(p)[0])
