"""Focused-ultrasound phased array (32 elements on a line) with a thin aberrating
layer: programmed focusing delays and the continuous-wave pressure at a point."""
import numpy as np
import warp as wp

N_EL = 32
X_EL = np.linspace(-24.0, 24.0, N_EL).astype(np.float32)  # mm
C0 = 1.5          # mm/us
F0 = 1.0          # MHz
rng = np.random.default_rng(21)
ABERRATION = (0.6 * np.sin(X_EL / 7.0) + 0.2 * rng.standard_normal(N_EL)).astype(np.float32)  # rad
TARGET = (3.0, 60.0)   # tumour position (x, z) in mm


@wp.kernel
def focusing_delays(x: wp.array(dtype=float), prm: wp.array(dtype=float), c0: float, tau: wp.array(dtype=float)):
    e = wp.tid()
    # delays that bring all elements into phase at the programmed focus (prm[0], prm[1])
    r = wp.length(wp.vec2(prm[0] - x[e], prm[1]))
    tau[e] = (100.0 - r) / c0


@wp.kernel
def pressure_at(x: wp.array(dtype=float), tau: wp.array(dtype=float), ab: wp.array(dtype=float), pt: wp.vec2,
                c0: float, f0: float, re: wp.array(dtype=float), im: wp.array(dtype=float)):
    e = wp.tid()
    r = wp.length(pt - wp.vec2(x[e], 0.0))
    ph = 2.0 * wp.pi * f0 * (tau[e] + r / c0) + ab[e]
    wp.atomic_add(re, 0, wp.cos(ph) / wp.sqrt(r))
    wp.atomic_add(im, 0, wp.sin(ph) / wp.sqrt(r))


@wp.kernel
def neg_intensity(re: wp.array(dtype=float), im: wp.array(dtype=float), loss: wp.array(dtype=float)):
    loss[0] = -(re[0] * re[0] + im[0] * im[0])
