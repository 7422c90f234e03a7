"""Inverse rendering: recover three soft discs (centre, radius, intensity) from a target image.

Discs are rasterised into per-disc coverage layers with a sigmoid edge and
composited front to back.
"""

import numpy as np
import warp as wp

wp.config.quiet = True

RES = 16
K = 3


@wp.struct
class RasterSettings:
    sharpness: float
    inv_res: float


@wp.kernel
def disc_coverage(discs: wp.array(dtype=wp.vec3), cfg: RasterSettings, cov: wp.array3d(dtype=float)):
    k, i, j = wp.tid()
    c = discs[k]
    px = (float(j) + 0.5) * cfg.inv_res
    py = (float(i) + 0.5) * cfg.inv_res
    d = wp.sqrt((px - c[0]) * (px - c[0]) + (py - c[1]) * (py - c[1]))
    cov[k, i, j] = 1.0 / (1.0 + wp.exp(-(c[2] - d) * cfg.sharpness))


@wp.kernel
def composite(cov: wp.array3d(dtype=float), intensity: wp.array(dtype=float), img: wp.array2d(dtype=float)):
    i, j = wp.tid()
    transmit = float(1.0)
    val = float(0.0)
    for k in range(K):
        a = cov[k, i, j]
        val += transmit * a * intensity[k]
        transmit = transmit * (1.0 - a)
    img[i, j] = val


@wp.kernel
def weighted_l2(img: wp.array2d(dtype=float), target: wp.array2d(dtype=float), mask: wp.array2d(dtype=float),
                inv_n: float, loss: wp.array(dtype=float)):
    i, j = wp.tid()
    r = img[i, j] - target[i, j]
    wp.atomic_add(loss, 0, mask[i, j] * r * r * inv_n)


def settings():
    cfg = RasterSettings()
    cfg.sharpness = 25.0
    cfg.inv_res = 1.0 / RES
    return cfg


def render(discs, intensity, cfg):
    cov = wp.zeros((K, RES, RES), dtype=float)  # expect: requires_grad
    img = wp.zeros((RES, RES), dtype=float, requires_grad=True)
    wp.launch(disc_coverage, dim=(K, RES, RES), inputs=[discs, cfg], outputs=[cov])
    wp.launch(composite, dim=(RES, RES), inputs=[cov, intensity], outputs=[img])
    return img


TRUE = np.array([0.3, 0.35, 0.18, 0.65, 0.4, 0.22, 0.5, 0.7, 0.15, 0.9, 0.6, 0.8])
PARAMS0 = np.array([0.35, 0.3, 0.2, 0.6, 0.45, 0.2, 0.45, 0.65, 0.17, 0.7, 0.7, 0.7])


def split(p):
    discs = wp.array(p[:9].reshape(K, 3).astype(np.float32), dtype=wp.vec3, requires_grad=True)
    intensity = wp.array(p[9:].astype(np.float32), dtype=float, requires_grad=True)
    return discs, intensity


def objective(p, target, mask, cfg):
    discs, intensity = split(p)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    with wp.Tape() as tape:
        img = render(discs, intensity, cfg)
        wp.launch(weighted_l2, dim=(RES, RES), inputs=[img, target, mask, 1.0 / (RES * RES)], outputs=[loss])
    tape.backward(loss)
    g = np.concatenate([discs.grad.numpy().ravel(), intensity.grad.numpy()]).astype(np.float64)
    return float(loss.numpy()[0]), g


def setup():
    cfg = settings()
    target = render(*split(TRUE), cfg)
    m = np.ones((RES, RES), dtype=np.float32)
    m[:2, :] = 0.0  # top rows of the sensor are dead
    return wp.array(target.numpy()), wp.array(m), cfg


def evaluate(p):
    target, mask, cfg = setup()
    return objective(np.asarray(p, dtype=np.float64), target, mask, cfg)


if __name__ == "__main__":
    target, mask, cfg = setup()
    p = PARAMS0.copy()
    for it in range(25):
        loss, g = objective(p, target, mask, cfg)
        p -= 0.5 * g
        if it % 8 == 0:
            print(f"iter {it:2d} loss {loss:.6f}")
    print("discs", np.round(p[:9], 3), "intensity", np.round(p[9:], 3))
