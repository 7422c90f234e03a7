"""Soft sprites composited into an image; a culling radius, computed from the learned radius on the
tape, has no requires_grad on purpose: the compositor only compares distances with it, so no gradient
could flow through it anyway (the learned radius gets its gradient through `radius`)."""

import numpy as np
import warp as wp

N = 4
RES = 16


@wp.kernel
def activate(log_radius: wp.array(dtype=float), radius: wp.array(dtype=float), cull: wp.array(dtype=float)):
    k = wp.tid()
    r = wp.exp(log_radius[k])
    radius[k] = r
    cull[k] = 3.0 * r + 0.05


@wp.kernel
def composite(pos: wp.array(dtype=wp.vec2), radius: wp.array(dtype=float), cull: wp.array(dtype=float),
              img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    p = wp.vec2((float(i) + 0.5) / float(RES), (float(j) + 0.5) / float(RES))
    acc = float(0.0)
    for k in range(N):
        d = wp.length(p - pos[k])
        if d < cull[k]:
            acc += wp.exp(-d * d / (radius[k] * radius[k]))
    img[i, j] = acc


@wp.kernel
def l2(img: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    r = img[i, j] - target[i, j]
    wp.atomic_add(loss, 0, r * r)


class Sprites:
    def __init__(self, rng):
        self.pos = wp.array(rng.uniform(0.2, 0.8, (N, 2)).astype(np.float32), dtype=wp.vec2, requires_grad=True)
        self.log_radius = wp.array(np.log(rng.uniform(0.08, 0.15, N)).astype(np.float32), requires_grad=True)
        self.radius = wp.zeros_like(self.log_radius)
        self.cull = wp.zeros(N, dtype=float)

    def render(self, img):
        wp.launch(activate, dim=N, inputs=[self.log_radius], outputs=[self.radius, self.cull])
        wp.launch(composite, dim=(RES, RES), inputs=[self.pos, self.radius, self.cull], outputs=[img])


rng = np.random.default_rng(3)
sprites = Sprites(rng)
target = wp.array(rng.uniform(0.0, 1.0, (RES, RES)).astype(np.float32), dtype=float)
img = wp.zeros((RES, RES), dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    sprites.render(img)
    wp.launch(l2, dim=(RES, RES), inputs=[img, target], outputs=[loss])
tape.backward(loss)
print("d loss / d log_radius", sprites.log_radius.grad.numpy())
