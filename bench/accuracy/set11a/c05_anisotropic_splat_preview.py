# correct: a preview frame is taken through a .numpy() view of the rendered image before backward, but the view is only read (the normalised frame is a new array).
"""Fit one anisotropic 2D Gaussian splat (mean, log-scales, rotation, amplitude)
to a reference image; every evaluation stores a normalised preview frame."""
import numpy as np
import warp as wp

RES = 16


@wp.kernel
def render(params: wp.array(dtype=float), img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    d = wp.vec2(float(j) + 0.5 - params[0], float(i) + 0.5 - params[1])
    c = wp.cos(params[4])
    s = wp.sin(params[4])
    u = (c * d[0] + s * d[1]) / wp.exp(params[2])
    v = (-s * d[0] + c * d[1]) / wp.exp(params[3])
    img[i, j] = params[5] * wp.exp(-0.5 * (u * u + v * v))


@wp.kernel
def l2(img: wp.array2d(dtype=float), ref: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = img[i, j] - ref[i, j]
    wp.atomic_add(loss, 0, d * d)


def reference():
    img = wp.zeros((RES, RES), dtype=float)
    wp.launch(render, dim=(RES, RES), inputs=[wp.array([8.5, 7.0, np.log(3.5), np.log(1.8), 0.6, 0.9], dtype=float)],
              outputs=[img])
    return img.numpy().copy()


REF = reference()
PARAMS0 = [8.0, 7.5, float(np.log(3.0)), float(np.log(2.0)), 0.4, 0.8]


class SplatFitter:
    def __init__(self):
        self.ref = wp.array(REF, dtype=float)
        self.img = wp.zeros((RES, RES), dtype=float, requires_grad=True)
        self.frames = []

    def loss_and_grad(self, p):
        params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(render, dim=(RES, RES), inputs=[params], outputs=[self.img])
            wp.launch(l2, dim=(RES, RES), inputs=[self.img, self.ref], outputs=[loss])
        frame = self.img.numpy()
        self.frames.append(np.clip(frame / frame.max(), 0.0, 1.0))
        tape.backward(loss)
        return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


def evaluate(p):
    return SplatFitter().loss_and_grad(p)


if __name__ == "__main__":
    fitter = SplatFitter()
    p = np.array(PARAMS0)
    for it in range(30):
        l, g = fitter.loss_and_grad(p)
        p -= 0.02 * g
    print(f"loss {l:.4e} mean ({p[0]:.2f}, {p[1]:.2f}) scales {np.exp(p[2:4]).round(2)} angle {p[4]:.3f} amp {p[5]:.3f}")
