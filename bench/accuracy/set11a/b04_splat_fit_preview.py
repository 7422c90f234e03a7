"""Fit the amplitudes and common width of four isotropic 2D Gaussian splats to a
reference image; a preview frame of every evaluation is kept for an animation."""
import numpy as np
import warp as wp

RES = 16
K = 4
MEANS = np.array([[4.0, 4.5], [11.0, 5.0], [6.0, 11.5], [11.5, 11.0]], dtype=np.float32)


@wp.kernel
def render(means: wp.array(dtype=wp.vec2), params: wp.array(dtype=float), img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    x = wp.vec2(float(j) + 0.5, float(i) + 0.5)
    s = wp.exp(params[K])
    acc = float(0.0)
    for k in range(K):
        d = x - means[k]
        acc += params[k] * wp.exp(-wp.dot(d, d) / (2.0 * s * s))
    img[i, j] = acc


@wp.kernel
def l2(img: wp.array2d(dtype=float), ref: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = img[i, j] - ref[i, j]
    wp.atomic_add(loss, 0, d * d)


def render_np(p):
    yy, xx = np.mgrid[0:RES, 0:RES] + 0.5
    s = np.exp(p[K])
    out = np.zeros((RES, RES))
    for k in range(K):
        out += p[k] * np.exp(-((xx - MEANS[k, 0]) ** 2 + (yy - MEANS[k, 1]) ** 2) / (2 * s * s))
    return out.astype(np.float32)


REF = render_np([0.9, 0.4, 0.6, 0.75, np.log(2.2)])


class SplatFitter:
    def __init__(self):
        self.means = wp.array(MEANS, dtype=wp.vec2)
        self.ref = wp.array(REF, dtype=float)
        self.img = wp.zeros((RES, RES), dtype=float, requires_grad=True)
        self.frames = []

    def loss_and_grad(self, p):
        params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(render, dim=(RES, RES), inputs=[self.means, params], outputs=[self.img])
            wp.launch(l2, dim=(RES, RES), inputs=[self.img, self.ref], outputs=[loss])
        frame = self.img.numpy()
        frame /= frame.max()  # expect: untaped_write
        self.frames.append(frame)
        tape.backward(loss)
        return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


PARAMS0 = [0.5, 0.5, 0.5, 0.5, float(np.log(1.8))]


def evaluate(p):
    return SplatFitter().loss_and_grad(p)


if __name__ == "__main__":
    fitter = SplatFitter()
    p = np.array(PARAMS0)
    for it in range(10):
        l, g = fitter.loss_and_grad(p)
        p -= 0.005 * g
    print(f"loss {l:.4f} amplitudes {p[:K].round(3)} sigma {np.exp(p[K]):.3f} frames {len(fitter.frames)}")
