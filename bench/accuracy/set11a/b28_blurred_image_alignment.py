"""Coarse-level image alignment: warp a source image by a rigid 2D motion
(bilinear resampling), blur it, and compare with the blurred target frame."""
import numpy as np
import warp as wp

from _filters import gaussian_blur

RES = 20


@wp.func
def fetch(img: wp.array2d(dtype=float), i: int, j: int):
    return img[wp.clamp(i, 0, RES - 1), wp.clamp(j, 0, RES - 1)]


@wp.kernel
def warp_image(src: wp.array2d(dtype=float), motion: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i, j = wp.tid()
    c = wp.cos(motion[2])
    s = wp.sin(motion[2])
    x = float(j) - 0.5 * float(RES)
    y = float(i) - 0.5 * float(RES)
    u = c * x - s * y + 0.5 * float(RES) + motion[0]
    v = s * x + c * y + 0.5 * float(RES) + motion[1]
    u0 = wp.floor(u)
    v0 = wp.floor(v)
    fu = u - u0
    fv = v - v0
    ii = int(v0)
    jj = int(u0)
    top = (1.0 - fu) * fetch(src, ii, jj) + fu * fetch(src, ii, jj + 1)
    bot = (1.0 - fu) * fetch(src, ii + 1, jj) + fu * fetch(src, ii + 1, jj + 1)
    out[i, j] = (1.0 - fv) * top + fv * bot


@wp.kernel
def ssd(a: wp.array2d(dtype=float), b: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = a[i, j] - b[i, j]
    wp.atomic_add(loss, 0, d * d)


def frames():
    yy, xx = np.mgrid[0:RES, 0:RES].astype(np.float64)
    src = np.exp(-((xx - 8.0) ** 2 + (yy - 9.0) ** 2) / 10.0) + 0.6 * np.exp(-((xx - 13.0) ** 2 + (yy - 12.0) ** 2) / 5.0)
    return src.astype(np.float32)


SRC = frames()


def blurred_target():
    src = wp.array(SRC, dtype=float)
    moved = wp.zeros((RES, RES), dtype=float)
    wp.launch(warp_image, dim=(RES, RES), inputs=[src, wp.array([1.3, -0.8, 0.15], dtype=float)], outputs=[moved])
    tmp = wp.zeros_like(moved)
    out = wp.zeros_like(moved)
    gaussian_blur(moved, tmp, out)
    return out.numpy().copy()


TARGET = blurred_target()
PARAMS0 = [0.9, -0.5, 0.05]


def evaluate(p):
    motion = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    src = wp.array(SRC, dtype=float)
    moved = wp.zeros((RES, RES), dtype=float, requires_grad=True)
    tmp = wp.zeros_like(moved)
    blurred = wp.zeros_like(moved)
    target = wp.array(TARGET, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(warp_image, dim=(RES, RES), inputs=[src, motion], outputs=[moved])
        gaussian_blur(moved, tmp, blurred)
        wp.launch(ssd, dim=(RES, RES), inputs=[blurred, target], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), motion.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0)
    for it in range(40):
        l, g = evaluate(p)
        p -= 0.05 * g
    print(f"ssd {l:.4e} motion t=({p[0]:.3f}, {p[1]:.3f}) angle {p[2]:.4f}")
