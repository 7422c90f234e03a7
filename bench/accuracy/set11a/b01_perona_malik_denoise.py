"""Perona-Malik anisotropic diffusion denoiser: fit the edge threshold kappa and
the step size lambda so that a few diffusion steps restore a clean test image."""
import numpy as np
import warp as wp

H, W = 12, 12
STEPS = 4


@wp.func
def flux(d: float, kappa: float):
    r = d / kappa
    return d / (1.0 + r * r)


@wp.kernel
def diffuse(src: wp.array2d(dtype=float), params: wp.array(dtype=float), dst: wp.array2d(dtype=float)):
    i, j = wp.tid()
    kappa = params[0]
    lam = params[1]
    c = src[i, j]
    up = src[wp.max(i - 1, 0), j] - c
    dn = src[wp.min(i + 1, H - 1), j] - c
    lf = src[i, wp.max(j - 1, 0)] - c
    rt = src[i, wp.min(j + 1, W - 1)] - c
    dst[i, j] = c + lam * (flux(up, kappa) + flux(dn, kappa) + flux(lf, kappa) + flux(rt, kappa))


@wp.kernel
def mse(img: wp.array2d(dtype=float), ref: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = img[i, j] - ref[i, j]
    wp.atomic_add(loss, 0, d * d / float(H * W))


def test_images():
    yy, xx = np.mgrid[0:H, 0:W]
    clean = (((xx - 5.5) ** 2 + (yy - 6.0) ** 2) < 16.0).astype(np.float32) * 0.8 + 0.1
    rng = np.random.default_rng(3)
    noisy = clean + 0.12 * rng.standard_normal((H, W)).astype(np.float32)
    return clean.astype(np.float32), noisy.astype(np.float32)


class Denoiser:
    def __init__(self, noisy):
        self.noisy = wp.array(noisy, dtype=float, requires_grad=True)
        self.buffers = [wp.zeros((H, W), dtype=float, requires_grad=True) for _ in range(2)]

    def run(self, params):
        src = self.noisy
        for s in range(STEPS):
            dst = self.buffers[s % 2]  # expect: overwrite
            wp.launch(diffuse, dim=(H, W), inputs=[src, params], outputs=[dst])
            src = dst
        return src


CLEAN, NOISY = test_images()
PARAMS0 = [0.3, 0.15]


def evaluate(p):
    params = wp.array(np.asarray(p, dtype=np.float32), dtype=float, requires_grad=True)
    ref = wp.array(CLEAN, dtype=float)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    den = Denoiser(NOISY)
    tape = wp.Tape()
    with tape:
        out = den.run(params)
        wp.launch(mse, dim=(H, W), inputs=[out, ref], outputs=[loss])
    tape.backward(loss)
    return float(loss.numpy()[0]), params.grad.numpy().astype(np.float64)


if __name__ == "__main__":
    p = np.array(PARAMS0, dtype=np.float64)
    for it in range(20):
        l, g = evaluate(p)
        p = p - 0.5 * g
        p[0] = max(p[0], 0.05)
        if it % 5 == 0:
            print(f"iter {it:2d} loss {l:.5f} kappa {p[0]:.4f} lambda {p[1]:.4f}")
