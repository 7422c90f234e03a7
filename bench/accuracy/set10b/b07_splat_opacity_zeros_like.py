"""RGB 2-D Gaussian splatting: fit positions, scales, colours and opacities
of a few Gaussians to a target image (additive compositing).

A preprocessing kernel turns the raw parameters into per-splat render
attributes (screen-space radius for culling, activated opacity).
"""
import numpy as np
import warp as wp

wp.config.quiet = True

RES = 16
N = 4
CULL_SIGMAS = 6.0


@wp.kernel
def preprocess(
    log_scale: wp.array(dtype=float),
    opacity_logit: wp.array(dtype=float),
    radius_px: wp.array(dtype=float),
    alpha: wp.array(dtype=float),
):
    k = wp.tid()
    radius_px[k] = CULL_SIGMAS * wp.exp(log_scale[k]) * float(RES)
    alpha[k] = 1.0 / (1.0 + wp.exp(-opacity_logit[k]))


@wp.kernel
def splat_rgb(
    center: wp.array(dtype=wp.vec2),
    log_scale: wp.array(dtype=float),
    color_logit: wp.array(dtype=wp.vec3),
    alpha: wp.array(dtype=float),
    radius_px: wp.array(dtype=float),
    img: wp.array2d(dtype=wp.vec3),
):
    k, py, px = wp.tid()
    pix = wp.vec2(float(px) + 0.5, float(py) + 0.5)
    c = center[k] * float(RES)
    d = pix - c
    if wp.abs(d[0]) > radius_px[k] or wp.abs(d[1]) > radius_px[k]:
        return
    s = wp.exp(log_scale[k]) * float(RES)
    g = wp.exp(-0.5 * wp.dot(d, d) / (s * s))
    cl = color_logit[k]
    rgb = wp.vec3(1.0 / (1.0 + wp.exp(-cl[0])), 1.0 / (1.0 + wp.exp(-cl[1])), 1.0 / (1.0 + wp.exp(-cl[2])))
    wp.atomic_add(img, py, px, alpha[k] * g * rgb)


@wp.kernel
def photometric(img: wp.array2d(dtype=wp.vec3), target: wp.array2d(dtype=wp.vec3), loss: wp.array(dtype=float)):
    y, x = wp.tid()
    d = img[y, x] - target[y, x]
    wp.atomic_add(loss, 0, wp.dot(d, d) / float(RES * RES))


class GaussianImage:
    def __init__(self, flat):
        p = np.asarray(flat, dtype=np.float32).reshape(N, 7)
        self.center = wp.array(p[:, 0:2], dtype=wp.vec2, requires_grad=True)
        self.log_scale = wp.array(p[:, 2], dtype=float, requires_grad=True)
        self.color_logit = wp.array(p[:, 3:6], dtype=wp.vec3, requires_grad=True)
        self.opacity_logit = wp.array(p[:, 6], dtype=float, requires_grad=True)
        # render attributes
        self.radius_px = wp.zeros(N, dtype=float)
        self.alpha = wp.zeros_like(self.radius_px)  # expect: requires_grad

    def render(self, img):
        wp.launch(preprocess, dim=N, inputs=[self.log_scale, self.opacity_logit], outputs=[self.radius_px, self.alpha])
        wp.launch(splat_rgb, dim=(N, RES, RES),
                  inputs=[self.center, self.log_scale, self.color_logit, self.alpha, self.radius_px], outputs=[img])

    def grad_flat(self):
        g = np.concatenate([self.center.grad.numpy(), self.log_scale.grad.numpy()[:, None], self.color_logit.grad.numpy(),
                            self.opacity_logit.grad.numpy()[:, None]], axis=1)
        return g.ravel().astype(np.float64)


rng = np.random.default_rng(11)
TRUE = np.concatenate([rng.uniform(0.3, 0.7, (N, 2)), np.log(rng.uniform(0.08, 0.15, (N, 1))), rng.normal(0, 1.5, (N, 3)),
                       rng.normal(0.5, 0.5, (N, 1))], axis=1)
_init = TRUE + rng.normal(0, 0.05, TRUE.shape)
_init[:, 6] -= 0.8  # start from more transparent splats
PARAMS0 = _init.ravel()


def _target():
    img = wp.zeros((RES, RES), dtype=wp.vec3)
    GaussianImage(TRUE.ravel()).render(img)
    return img


TARGET = _target()


def evaluate(p):
    model = GaussianImage(p)
    img = wp.zeros((RES, RES), dtype=wp.vec3, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        model.render(img)
        wp.launch(photometric, dim=(RES, RES), inputs=[img, TARGET], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), model.grad_flat()


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(60):
        loss, g = evaluate(p)
        p -= 0.05 * g
        if it % 20 == 0:
            print(f"iter {it:2d} loss {loss:.5f}")
    print("final", evaluate(p)[0])
