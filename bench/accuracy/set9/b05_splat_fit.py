"""Fit 2-D point positions so their Gaussian splats reproduce a target image (SGD with momentum)."""

import numpy as np
import warp as wp
import warp.optim

RES = 12
SIGMA = 1.6
TRUE_PTS = np.array([3.0, 4.0, 8.0, 3.5, 6.0, 8.5], dtype=np.float32)
INIT_PTS = np.array([3.8, 4.6, 7.2, 4.4, 5.2, 7.6], dtype=np.float32)


@wp.kernel
def splat(pts: wp.array(dtype=float), sigma: float, img: wp.array2d(dtype=float)):
    k, i, j = wp.tid()
    dx = float(j) + 0.5 - pts[2 * k + 0]
    dy = float(i) + 0.5 - pts[2 * k + 1]
    w = wp.exp(-(dx * dx + dy * dy) / (2.0 * sigma * sigma))
    wp.atomic_add(img, i, j, w)


@wp.kernel
def image_loss(img: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = img[i, j] - target[i, j]
    wp.atomic_add(loss, 0, d * d)


class SplatRenderer:
    def __init__(self, res=RES, sigma=SIGMA):
        self.res = res
        self.sigma = sigma
        self.canvas = wp.zeros((res, res), dtype=float, requires_grad=True)

    def render(self, pts):
        img = self.canvas  # expect: missing_zero
        wp.launch(splat, dim=(pts.shape[0] // 2, self.res, self.res), inputs=[pts, self.sigma], outputs=[img])
        return img


def make_target():
    r = SplatRenderer()
    return wp.clone(r.render(wp.array(TRUE_PTS, dtype=float)))


def objective(p):
    r = SplatRenderer()
    loss = wp.zeros(1, dtype=float)
    img = r.render(wp.array(p.astype(np.float32), dtype=float))
    wp.launch(image_loss, dim=(RES, RES), inputs=[img, make_target()], outputs=[loss])
    return float(loss.numpy()[0])


def fit(iters=40, lr=0.02, verbose=False):
    target = make_target()
    renderer = SplatRenderer()
    pts = wp.array(INIT_PTS, dtype=float, requires_grad=True)
    opt = warp.optim.SGD([pts], lr=lr, momentum=0.5)
    for it in range(iters):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            img = renderer.render(pts)
            wp.launch(image_loss, dim=(RES, RES), inputs=[img, target], outputs=[loss])
        tape.backward(loss)
        opt.step([pts.grad])
        tape.zero()
        if verbose and it % 10 == 0:
            print(f"iter {it:3d}  loss {loss.numpy()[0]:.5f}")
    return pts.numpy()


def verify(iters=3, eps=1e-2):
    """Gradient the optimizer consumed at its last step vs central differences at those parameters."""
    seen = []
    step = warp.optim.SGD.step

    def spy(self, grad):
        seen.append((self.params[0].numpy().copy(), grad[0].numpy().copy()))
        return step(self, grad)

    warp.optim.SGD.step = spy
    try:
        fit(iters)
    finally:
        warp.optim.SGD.step = step
    p, ad = seen[-1]
    p = p.astype(np.float64)
    fd = np.zeros_like(p)
    for k in range(p.size):
        hi, lo = p.copy(), p.copy()
        hi[k] += eps
        lo[k] -= eps
        fd[k] = (objective(hi) - objective(lo)) / (2 * eps)
    return ad, fd


if __name__ == "__main__":
    print("fitted points", np.round(fit(verbose=True), 3))
