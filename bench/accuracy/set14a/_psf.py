"""1-D incoherent PSF of a circular-pupil objective (cut through the pupil) with
defocus and primary spherical aberration, computed by a direct DFT."""
import numpy as np
import warp as wp

N_PUP = 48
N_IMG = 40
U = np.linspace(-1.0, 1.0, N_PUP).astype(np.float32)


@wp.kernel
def pupil_phase(u: wp.array(dtype=float), prm: wp.array(dtype=float), ph: wp.array(dtype=float)):
    k = wp.tid()
    u2 = u[k] * u[k]
    ph[k] = 2.0 * wp.pi * (prm[0] * (2.0 * u2 - 1.0) + prm[1] * (6.0 * u2 * u2 - 6.0 * u2 + 1.0))


@wp.kernel
def psf_dft(ph: wp.array(dtype=float), u: wp.array(dtype=float), re: wp.array(dtype=float), im: wp.array(dtype=float)):
    m, k = wp.tid()
    x = (float(m) - 0.5 * float(re.shape[0])) * 0.25
    a = ph[k] - 2.0 * wp.pi * x * u[k] * 0.5
    wp.atomic_add(re, m, wp.cos(a) / float(u.shape[0]))
    wp.atomic_add(im, m, wp.sin(a) / float(u.shape[0]))


@wp.kernel
def psf_misfit(re: wp.array(dtype=float), im: wp.array(dtype=float), prm: wp.array(dtype=float),
               meas: wp.array(dtype=float), loss: wp.array(dtype=float)):
    m = wp.tid()
    d = prm[2] * (re[m] * re[m] + im[m] * im[m]) - meas[m]
    wp.atomic_add(loss, 0, d * d)


def measured_psf():
    u = U.astype(np.float64)
    ph = 2 * np.pi * (0.35 * (2 * u ** 2 - 1) + 0.12 * (6 * u ** 4 - 6 * u ** 2 + 1))
    x = (np.arange(N_IMG) - 0.5 * N_IMG) * 0.25
    f = np.exp(1j * (ph[None, :] - 2 * np.pi * x[:, None] * u[None, :] * 0.5)).sum(1) / N_PUP
    return (0.9 * np.abs(f) ** 2).astype(np.float32)
