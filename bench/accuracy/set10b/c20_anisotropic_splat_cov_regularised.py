# correct: covariance components are set one by one in a @wp.func, but each is assigned once (the diagonal regularisation uses +=), which Warp differentiates correctly
"""Anisotropic 2-D Gaussian splatting: each splat has a centre, two log
scales, a rotation and an intensity.  The 2x2 covariance is assembled
component-wise, regularised on its diagonal, and inverted for evaluation.
"""
import numpy as np
import warp as wp

wp.config.quiet = True

RES = 14
N = 3
COV_EPS = 1e-3


@wp.func
def covariance(log_s: wp.vec2, angle: float):
    sx = wp.exp(log_s[0])
    sy = wp.exp(log_s[1])
    c = wp.cos(angle)
    s = wp.sin(angle)
    cov = wp.mat22()
    cov[0, 0] = c * c * sx * sx + s * s * sy * sy
    cov[0, 1] = c * s * (sx * sx - sy * sy)
    cov[1, 0] = c * s * (sx * sx - sy * sy)
    cov[1, 1] = s * s * sx * sx + c * c * sy * sy
    cov[0, 0] += COV_EPS
    cov[1, 1] += COV_EPS
    return cov


@wp.kernel
def splat(mu: wp.array(dtype=wp.vec2), log_s: wp.array(dtype=wp.vec2), angle: wp.array(dtype=float), inten: wp.array(dtype=float),
          img: wp.array2d(dtype=float)):
    k, y, x = wp.tid()
    p = wp.vec2((float(x) + 0.5) / float(RES), (float(y) + 0.5) / float(RES))
    d = p - mu[k]
    ic = wp.inverse(covariance(log_s[k], angle[k]))
    wp.atomic_add(img, y, x, inten[k] * wp.exp(-0.5 * wp.dot(d, ic * d)))


@wp.kernel
def l2(img: wp.array2d(dtype=float), target: wp.array2d(dtype=float), loss: wp.array(dtype=float)):
    y, x = wp.tid()
    r = img[y, x] - target[y, x]
    wp.atomic_add(loss, 0, r * r)


def arrays(p, grad):
    p = np.asarray(p, np.float32).reshape(N, 6)
    return (wp.array(p[:, 0:2], dtype=wp.vec2, requires_grad=grad), wp.array(p[:, 2:4], dtype=wp.vec2, requires_grad=grad),
            wp.array(p[:, 4], dtype=float, requires_grad=grad), wp.array(p[:, 5], dtype=float, requires_grad=grad))


TRUE = np.array([[0.3, 0.35, np.log(0.12), np.log(0.05), 0.4, 1.0], [0.65, 0.6, np.log(0.06), np.log(0.1), -0.3, 0.7],
                 [0.5, 0.25, np.log(0.08), np.log(0.08), 0.0, 0.5]])


def _target():
    img = wp.zeros((RES, RES), dtype=float)
    wp.launch(splat, dim=(N, RES, RES), inputs=arrays(TRUE.ravel(), False), outputs=[img])
    return img


TARGET = _target()
PARAMS0 = (TRUE + np.random.default_rng(7).normal(0, 0.05, TRUE.shape)).ravel()


def evaluate(p):
    a = arrays(p, True)
    img = wp.zeros((RES, RES), dtype=float, requires_grad=True)
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(splat, dim=(N, RES, RES), inputs=a, outputs=[img])
        wp.launch(l2, dim=(RES, RES), inputs=[img, TARGET], outputs=[loss])
    tape.backward(loss)
    g = np.concatenate([a[0].grad.numpy(), a[1].grad.numpy(), a[2].grad.numpy()[:, None], a[3].grad.numpy()[:, None]], 1)
    return float(loss.numpy()[0]), g.ravel().astype(np.float64)


if __name__ == "__main__":
    p = PARAMS0.copy()
    for it in range(80):
        loss, g = evaluate(p)
        p -= 0.002 * g
        if it % 20 == 0:
            print(f"iter {it:2d} loss {loss:.5f}")
