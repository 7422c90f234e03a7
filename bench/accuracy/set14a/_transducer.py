"""Linear ultrasound array (32 elements, half-wavelength pitch): apodisation,
far-field array factor and the side-lobe energy ratio of the beam."""
import numpy as np
import warp as wp

N_EL = 32
N_ANG = 181
ANGLES = np.linspace(-np.pi / 2, np.pi / 2, N_ANG).astype(np.float32)
X_EL = ((np.arange(N_EL) - (N_EL - 1) / 2) * 0.5).astype(np.float32)  # in wavelengths
NOMINAL_STEER = 0.3
MAIN_LOBE = (np.abs(np.sin(ANGLES) - np.sin(NOMINAL_STEER)) < 0.12).astype(np.float32)


@wp.kernel
def gaussian_apodisation(x: wp.array(dtype=float), prm: wp.array(dtype=float), half_ap: float, w: wp.array(dtype=float)):
    e = wp.tid()
    u = x[e] / (prm[0] * half_ap)
    w[e] = wp.exp(-0.5 * u * u)


@wp.kernel
def array_factor(x: wp.array(dtype=float), w: wp.array(dtype=float), prm: wp.array(dtype=float),
                 ang: wp.array(dtype=float), re: wp.array(dtype=float), im: wp.array(dtype=float)):
    a, e = wp.tid()
    ph = 2.0 * wp.pi * x[e] * (wp.sin(ang[a]) - wp.sin(prm[1]))
    wp.atomic_add(re, a, w[e] * wp.cos(ph))
    wp.atomic_add(im, a, w[e] * wp.sin(ph))


@wp.kernel
def lobe_energy(re: wp.array(dtype=float), im: wp.array(dtype=float), main: wp.array(dtype=float),
                s: wp.array(dtype=float)):
    a = wp.tid()
    pw = re[a] * re[a] + im[a] * im[a]
    wp.atomic_add(s, 0, pw * (1.0 - main[a]))
    wp.atomic_add(s, 1, pw)


@wp.kernel
def sidelobe_ratio(s: wp.array(dtype=float), loss: wp.array(dtype=float)):
    loss[0] = s[0] / s[1]
