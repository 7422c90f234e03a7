"""Fit a soft-rasterised disk (centre, radius) to a target silhouette image."""
import numpy as np
import warp as wp

from _soft_raster import disk_coverage

RES = 24
SHARP = 12.0


@wp.kernel
def render(params: wp.array(dtype=float), img: wp.array2d(dtype=float)):
    y, x = wp.tid()
    p = wp.vec2((float(x) + 0.5) / float(RES), (float(y) + 0.5) / float(RES))
    c = wp.vec2(params[0], params[1])
    img[y, x] = disk_coverage(p, c, params[2], SHARP)


@wp.kernel
def image_loss(img: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    y, x = wp.tid()
    r = img[y, x] - target[y, x]
    wp.atomic_add(loss, 0, r * r / float(RES * RES))


yy, xx = np.mgrid[0:RES, 0:RES]
TARGET = (((xx + 0.5) / RES - 0.6) ** 2 + ((yy + 0.5) / RES - 0.45) ** 2 < 0.25 ** 2).astype(np.float32)
PARAMS0 = np.array([0.5, 0.5, 0.2], dtype=np.float32)


class DiskFitter:
    def __init__(self, p0):
        self.params = wp.array(p0, dtype=float, requires_grad=True)
        self.img = wp.zeros((RES, RES), dtype=float, requires_grad=True)
        self.target = wp.array(TARGET, dtype=float)

    def loss_and_grad(self):
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(render, dim=(RES, RES), inputs=[self.params], outputs=[self.img])
            wp.launch(image_loss, dim=(RES, RES), inputs=[self.img, self.target], outputs=[loss])
        tape.backward(loss)
        return float(loss.numpy()[0]), self.params.grad.numpy().copy()


def evaluate(p):
    return DiskFitter(p).loss_and_grad()


def main():
    fitter = DiskFitter(PARAMS0)
    l, g = fitter.loss_and_grad()
    print("loss", l, "grad", g)


if __name__ == "__main__":
    main()
