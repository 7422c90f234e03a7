# correct: intermediate render attributes are made with wp.zeros_like, but from the parameter arrays, so they inherit requires_grad=True (the culling radius is deliberately gradient-free)
"""Fit a few soft circular sprites (position, radius, opacity, grey level) to
a target image with alpha compositing in a fixed order (front to back).
"""
import numpy as np
import warp as wp

wp.config.quiet = True

RES = 16
N = 3
SOFT = 0.03


@wp.kernel
def activate(opacity_logit: wp.array(dtype=float), log_radius: wp.array(dtype=float), alpha: wp.array(dtype=float),
             radius: wp.array(dtype=float), cull: wp.array(dtype=float)):
    k = wp.tid()
    alpha[k] = 1.0 / (1.0 + wp.exp(-opacity_logit[k]))
    radius[k] = wp.exp(log_radius[k])
    cull[k] = wp.exp(log_radius[k]) + 12.0 * SOFT


@wp.kernel
def composite(pos: wp.array(dtype=wp.vec2), radius: wp.array(dtype=float), alpha: wp.array(dtype=float), grey: wp.array(dtype=float),
              cull: wp.array(dtype=float), img: wp.array2d(dtype=float)):
    y, x = wp.tid()
    p = wp.vec2((float(x) + 0.5) / float(RES), (float(y) + 0.5) / float(RES))
    transmittance = float(1.0)
    color = float(0.0)
    for k in range(N):
        dist = wp.length(p - pos[k])
        cover = float(0.0)
        if dist < cull[k]:
            cover = alpha[k] / (1.0 + wp.exp((dist - radius[k]) / SOFT))
        color += transmittance * cover * grey[k]
        transmittance = transmittance * (1.0 - cover)
    img[y, x] = color


@wp.kernel
def image_loss(img: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    y, x = wp.tid()
    r = img[y, x] - target[y, x]
    wp.atomic_add(loss, 0, r * r)


class Sprites:
    def __init__(self, p):
        p = np.asarray(p, np.float32).reshape(N, 5)
        self.pos = wp.array(p[:, 0:2], dtype=wp.vec2, requires_grad=True)
        self.log_radius = wp.array(p[:, 2], dtype=float, requires_grad=True)
        self.opacity_logit = wp.array(p[:, 3], dtype=float, requires_grad=True)
        self.grey = wp.array(p[:, 4], dtype=float, requires_grad=True)
        self.alpha = wp.zeros_like(self.opacity_logit)
        self.radius = wp.zeros_like(self.log_radius)
        self.cull = wp.zeros(N, dtype=float)

    def render(self, img):
        wp.launch(activate, dim=N, inputs=[self.opacity_logit, self.log_radius], outputs=[self.alpha, self.radius, self.cull])
        wp.launch(composite, dim=(RES, RES), inputs=[self.pos, self.radius, self.alpha, self.grey, self.cull], outputs=[img])

    def grad_flat(self):
        return np.concatenate([self.pos.grad.numpy(), self.log_radius.grad.numpy()[:, None], self.opacity_logit.grad.numpy()[:, None],
                               self.grey.grad.numpy()[:, None]], 1).ravel().astype(np.float64)


TRUE = np.array([[0.35, 0.4, np.log(0.2), 1.5, 0.9], [0.6, 0.55, np.log(0.15), 0.5, 0.5], [0.5, 0.3, np.log(0.25), -0.5, 0.2]])


def _target():
    img = wp.zeros((RES, RES), dtype=float)
    Sprites(TRUE.ravel()).render(img)
    return img


TARGET = _target()
PARAMS0 = (TRUE + np.random.default_rng(1).normal(0, 0.04, TRUE.shape)).ravel()


def evaluate(p):
    sp = Sprites(p)
    img = wp.zeros((RES, RES), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        sp.render(img)
        wp.launch(image_loss, dim=(RES, RES), inputs=[img, TARGET], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), sp.grad_flat()


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(100):
        loss, g = evaluate(p)
        p -= 0.002 * g
        if it % 25 == 0:
            print(f"iter {it:3d} loss {loss:.5f}")
