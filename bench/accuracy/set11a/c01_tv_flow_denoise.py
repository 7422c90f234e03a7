# correct: an iterative nonlinear filter chain on one tape, but every step writes its own preallocated buffer (no buffer is written after it was read).
"""Total-variation flow denoiser: fit the smoothing epsilon and the step size so
that a few explicit TV-flow steps restore a clean test image."""
import numpy as np
import warp as wp

H, W = 12, 12
STEPS = 4


@wp.func
def tv_flux(d: float, eps: float):
    return d / wp.sqrt(d * d + eps * eps)


@wp.kernel
def tv_step(src: wp.array2d(dtype=float), params: wp.array(dtype=float), dst: wp.array2d(dtype=float)):
    i, j = wp.tid()
    eps = params[0]
    tau = params[1]
    c = src[i, j]
    up = src[wp.max(i - 1, 0), j] - c
    dn = src[wp.min(i + 1, H - 1), j] - c
    lf = src[i, wp.max(j - 1, 0)] - c
    rt = src[i, wp.min(j + 1, W - 1)] - c
    dst[i, j] = c + tau * (tv_flux(up, eps) + tv_flux(dn, eps) + tv_flux(lf, eps) + tv_flux(rt, eps))


@wp.kernel
def mse(img: wp.array2d(dtype=float), ref: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    i, j = wp.tid()
    d = img[i, j] - ref[i, j]
    wp.atomic_add(loss, 0, d * d / float(H * W))


def test_images():
    yy, xx = np.mgrid[0:H, 0:W]
    clean = ((np.abs(xx - 5.5) < 3.5) & (np.abs(yy - 6.0) < 2.5)).astype(np.float32) * 0.7 + 0.2
    rng = np.random.default_rng(7)
    return clean.astype(np.float32), (clean + 0.25 * rng.standard_normal((H, W))).astype(np.float32)


class Denoiser:
    def __init__(self, noisy):
        self.buffers = [wp.array(noisy, dtype=float, requires_grad=True)]
        self.buffers += [wp.zeros((H, W), dtype=float, requires_grad=True) for _ in range(STEPS)]

    def run(self, params):
        for s in range(STEPS):
            wp.launch(tv_step, dim=(H, W), inputs=[self.buffers[s], params], outputs=[self.buffers[s + 1]])
        return self.buffers[-1]


CLEAN, NOISY = test_images()
PARAMS0 = [0.2, 0.05]


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
    p = np.array(PARAMS0)
    for it in range(20):
        l, g = evaluate(p)
        p = p - 0.05 * g
        p[0] = max(p[0], 0.02)
        if it % 5 == 0:
            print(f"iter {it:2d} loss {l:.5f} eps {p[0]:.4f} tau {p[1]:.4f}")
