"""Plate-fin heat sink for a power module: fin heat transfer by the fin-efficiency formula."""
import numpy as np
import warp as wp

N_FIN = 8
PITCH = 4.0e-3  # m
FIN_LEN = 0.03  # m
FIN_DEPTH = 0.06  # m
DT_BASE = 45.0  # K above ambient


@wp.struct
class Material:
    k: float  # W/m K
    h0: float  # W/m^2 K for an unobstructed channel
    rho: float  # kg/m^3


def aluminium():
    m = Material()
    m.k = 205.0
    m.h0 = 60.0
    m.rho = 2700.0
    return m


@wp.kernel
def fin_balance(t_mm: wp.array(dtype=float), mat: Material, mass_price: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    t = t_mm[i] * 1.0e-3
    open_frac = 1.0 - t / PITCH
    h = mat.h0 * open_frac * open_frac
    m = wp.sqrt(2.0 * h / (mat.k * t))
    ml = m * FIN_LEN
    eta = wp.tanh(ml) / ml
    q = eta * h * 2.0 * FIN_LEN * FIN_DEPTH * DT_BASE  # W
    mass_g = mat.rho * t * FIN_LEN * FIN_DEPTH * 1.0e3
    wp.atomic_add(loss, 0, -q + mass_price * mass_g)


@wp.kernel
def projected_step(t_mm: wp.array(dtype=float), g: wp.array(dtype=float), lr: float):
    i = wp.tid()
    t_mm[i] = wp.clamp(t_mm[i] - lr * g[i], 0.3, 3.0)
