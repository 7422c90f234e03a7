"""Register a 2D point set to a density image: the points are splatted with a
Gaussian kernel into a density grid and a similarity transform (translation,
log-scale, rotation) is optimised with warp.optim.SGD."""
import numpy as np
import warp as wp
from warp.optim import SGD

RES = 12
SIGMA = 1.0
FD_EPS = 1e-3


@wp.kernel
def splat(pts: wp.array(dtype=wp.vec2), xf: wp.array(dtype=float), density: wp.array2d(dtype=float)):
    k, i, j = wp.tid()
    s = wp.exp(xf[2])
    c = wp.cos(xf[3])
    sn = wp.sin(xf[3])
    p = pts[k]
    q = wp.vec2(s * (c * p[0] - sn * p[1]) + xf[0], s * (sn * p[0] + c * p[1]) + xf[1])
    d = wp.vec2(float(j) + 0.5, float(i) + 0.5) - q
    wp.atomic_add(density, i, j, wp.exp(-wp.dot(d, d) / (2.0 * SIGMA * SIGMA)))


@wp.kernel
def density_loss(density: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    r = density[i, j] - target[i, j]
    wp.atomic_add(loss, 0, r * r)


PTS = np.array([[-3.0, -2.0], [-1.0, -2.5], [1.5, -2.0], [3.0, -1.0], [2.0, 1.5],
                [0.0, 2.5], [-2.5, 1.5], [-0.5, 0.0]], dtype=np.float32)
XF_TRUE = np.array([6.3, 5.8, np.log(1.1), 0.3])
XF0 = np.array([5.8, 6.2, 0.0, 0.1])


def splat_np(xf):
    s, c, sn = np.exp(xf[2]), np.cos(xf[3]), np.sin(xf[3])
    q = np.stack([s * (c * PTS[:, 0] - sn * PTS[:, 1]) + xf[0], s * (sn * PTS[:, 0] + c * PTS[:, 1]) + xf[1]], 1)
    yy, xx = np.mgrid[0:RES, 0:RES] + 0.5
    return sum(np.exp(-((xx - a) ** 2 + (yy - b) ** 2) / (2 * SIGMA ** 2)) for a, b in q).astype(np.float32)


TARGET = splat_np(XF_TRUE)


class Registration:
    def __init__(self, xf0, lr=0.002):
        self.pts = wp.array(PTS, dtype=wp.vec2)
        self.target = wp.array(TARGET, dtype=float)
        self.xf = wp.array(np.asarray(xf0, dtype=np.float32), dtype=float, requires_grad=True)
        self.density = wp.zeros((RES, RES), dtype=float, requires_grad=True)
        self.opt = SGD([self.xf], lr=lr)
        self.history = []

    def iterate(self):
        self.density.grad.zero_()  # expect: missing_zero
        loss = wp.zeros(1, dtype=float, requires_grad=True)
        tape = wp.Tape()
        with tape:
            wp.launch(splat, dim=(len(PTS), RES, RES), inputs=[self.pts, self.xf], outputs=[self.density])
            wp.launch(density_loss, dim=(RES, RES), inputs=[self.density, self.target], outputs=[loss])
        tape.backward(loss)
        self.history.append((self.xf.numpy().astype(np.float64), self.xf.grad.numpy().astype(np.float64)))
        self.opt.step([self.xf.grad])
        tape.zero()
        return float(loss.numpy()[0])


def objective(xf):
    reg = Registration(xf)
    loss = wp.zeros(1, dtype=float)
    wp.launch(splat, dim=(len(PTS), RES, RES), inputs=[reg.pts, reg.xf], outputs=[reg.density])
    wp.launch(density_loss, dim=(RES, RES), inputs=[reg.density, reg.target], outputs=[loss])
    return float(loss.numpy()[0])


def verify():
    reg = Registration(XF0)
    for _ in range(3):
        reg.iterate()
    xf, ad = reg.history[-1]
    fd = np.zeros(4)
    for k in range(4):
        a, b = xf.copy(), xf.copy()
        a[k] += FD_EPS
        b[k] -= FD_EPS
        fd[k] = (objective(a) - objective(b)) / (2 * FD_EPS)
    return ad, fd


if __name__ == "__main__":
    reg = Registration(XF0)
    for it in range(30):
        l = reg.iterate()
        if it % 10 == 0:
            print(f"iter {it:2d} loss {l:.4f}")
    print("transform", reg.xf.numpy().round(3))
