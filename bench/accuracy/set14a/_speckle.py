"""Fresnel-regime speckle from a thin random diffuser onto a line detector,
summed incoherently over a few laser lines."""
import numpy as np
import warp as wp

N_SCAT = 48
N_PIX = 64
N_LINES = 5
DIST = 2000.0  # um, diffuser to detector

rng = np.random.default_rng(5)
X_SCAT = rng.uniform(-60.0, 60.0, N_SCAT).astype(np.float32)
PHI_SCAT = rng.uniform(0.0, 2.0 * np.pi, N_SCAT).astype(np.float32)
X_PIX = np.linspace(-150.0, 150.0, N_PIX).astype(np.float32)


@wp.kernel
def partial_fields(xs: wp.array(dtype=float), phi: wp.array(dtype=float), xp: wp.array(dtype=float),
                   spec: wp.array(dtype=float), dist: float, re: wp.array2d(dtype=float), im: wp.array2d(dtype=float)):
    m, p, j = wp.tid()
    lam = spec[0] * (1.0 + (float(m) - 2.0) * spec[1])
    dx = xp[p] - xs[j]
    ph = 2.0 * wp.pi / lam * dx * dx / (2.0 * dist) + phi[j]
    a = 1.0 / wp.sqrt(float(xs.shape[0]))
    wp.atomic_add(re, m, p, a * wp.cos(ph))
    wp.atomic_add(im, m, p, a * wp.sin(ph))


@wp.kernel
def incoherent_sum(re: wp.array2d(dtype=float), im: wp.array2d(dtype=float), intensity: wp.array(dtype=float)):
    m, p = wp.tid()
    wp.atomic_add(intensity, p, (re[m, p] * re[m, p] + im[m, p] * im[m, p]) / float(re.shape[0]))


@wp.kernel
def moments(intensity: wp.array(dtype=float), s: wp.array(dtype=float)):
    p = wp.tid()
    v = intensity[p]
    wp.atomic_add(s, 0, v)
    wp.atomic_add(s, 1, v * v)


@wp.kernel
def contrast(s: wp.array(dtype=float), n: float, c: wp.array(dtype=float)):
    mean = s[0] / n
    var = s[1] / n - mean * mean
    c[0] = wp.sqrt(var) / mean


def buffers():
    re = wp.zeros((N_LINES, N_PIX), dtype=float, requires_grad=True)
    im = wp.zeros((N_LINES, N_PIX), dtype=float, requires_grad=True)
    intensity = wp.zeros(N_PIX, dtype=float, requires_grad=True)
    s = wp.zeros(2, dtype=float, requires_grad=True)
    c = wp.zeros(1, dtype=float, requires_grad=True)
    return re, im, intensity, s, c


def geometry():
    return wp.array(X_SCAT, dtype=float), wp.array(PHI_SCAT, dtype=float), wp.array(X_PIX, dtype=float)
