# correct: framebuffers are cached and zero_()-ed inside the tape before rendering, but every view has its own buffer, so nothing a loss launch read is cleared again
"""Stereo inverse rendering of anisotropic 2-D Gaussian blobs.

Two views (a left and a right camera, horizontally shifted) see the same
blobs; their parameters are fitted to both images.  Render targets are
cached per view and cleared at the start of every render.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

RES = 14
N = 4
BASELINE = 0.12


@wp.kernel
def splat_view(mu: wp.array(dtype=wp.vec2), depth: wp.array(dtype=float), log_s: wp.array(dtype=wp.vec2), w: wp.array(dtype=float),
               shift: float, img: wp.array2d(dtype=float)):
    k, y, x = wp.tid()
    c = mu[k] + wp.vec2(shift / depth[k], 0.0)
    s = wp.vec2(wp.exp(log_s[k][0]), wp.exp(log_s[k][1]))
    p = wp.vec2((float(x) + 0.5) / float(RES), (float(y) + 0.5) / float(RES))
    d = wp.cw_div(p - c, s)
    wp.atomic_add(img, y, x, w[k] * wp.exp(-0.5 * wp.dot(d, d)))


@wp.kernel
def l2_image(img: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    y, x = wp.tid()
    r = img[y, x] - target[y, x]
    wp.atomic_add(loss, 0, r * r)


class StereoRenderer:
    def __init__(self):
        self.framebuffers = {}

    def target_for(self, view):
        if view not in self.framebuffers:
            self.framebuffers[view] = wp.zeros((RES, RES), dtype=float, requires_grad=True)
        return self.framebuffers[view]

    def render(self, blobs, view, shift):
        img = self.target_for(view)
        img.zero_()
        wp.launch(splat_view, dim=(N, RES, RES), inputs=[*blobs, shift], outputs=[img])
        return img


def unpack(p):
    p = np.asarray(p, np.float32).reshape(N, 6)
    return (wp.array(p[:, 0:2], dtype=wp.vec2, requires_grad=True), wp.array(p[:, 2], dtype=float, requires_grad=True),
            wp.array(p[:, 3:5], dtype=wp.vec2, requires_grad=True), wp.array(p[:, 5], dtype=float, requires_grad=True))


VIEWS = {"left": -0.5 * BASELINE, "right": 0.5 * BASELINE}
_rng = np.random.default_rng(6)
TRUE = np.concatenate([_rng.uniform(0.3, 0.7, (N, 2)), _rng.uniform(1.0, 2.0, (N, 1)), np.log(_rng.uniform(0.06, 0.12, (N, 2))),
                       _rng.uniform(0.5, 1.0, (N, 1))], 1)
_tr = StereoRenderer()
TARGETS = {v: wp.clone(_tr.render(unpack(TRUE), v, s)) for v, s in VIEWS.items()}
PARAMS0 = (TRUE + _rng.normal(0, 0.03, TRUE.shape)).ravel()
_renderer = StereoRenderer()


def evaluate(p):
    blobs = unpack(p)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for view, shift in VIEWS.items():
            img = _renderer.render(blobs, view, shift)
            wp.launch(l2_image, dim=(RES, RES), inputs=[img, TARGETS[view]], outputs=[loss])
    tape.backward(loss)
    g = np.concatenate([blobs[0].grad.numpy(), blobs[1].grad.numpy()[:, None], blobs[2].grad.numpy(), blobs[3].grad.numpy()[:, None]], 1)
    return float(loss.numpy()[0]), g.ravel().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(60):
        loss, g = evaluate(p)
        p -= 0.0005 * g
        if it % 20 == 0:
            print(f"iter {it:2d} loss {loss:.5f}")
