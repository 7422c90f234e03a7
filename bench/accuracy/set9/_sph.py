"""Weakly compressible SPH pieces: poly6 density, Tait pressure, symplectic Euler."""

import math

import numpy as np
import warp as wp

H = 0.5
MASS = 1.0
POLY6 = 315.0 / (64.0 * math.pi * H**9)
SPIKY_GRAD = -45.0 / (math.pi * H**6)


@wp.kernel
def density(x: wp.array(dtype=wp.vec3), h: float, poly6: float, mass: float, rho: wp.array(dtype=float)):
    i, j = wp.tid()
    d = x[j] - x[i]
    r2 = wp.dot(d, d)
    if r2 < h * h:
        q = h * h - r2
        wp.atomic_add(rho, i, mass * poly6 * q * q * q)


@wp.kernel
def tait_pressure(rho: wp.array(dtype=float), rho0: float, stiffness: wp.array(dtype=float), p: wp.array(dtype=float)):
    i = wp.tid()
    p[i] = stiffness[0] * (wp.pow(rho[i] / rho0, 3.0) - 1.0)


@wp.kernel
def pressure_force(
    x: wp.array(dtype=wp.vec3),
    rho: wp.array(dtype=float),
    p: wp.array(dtype=float),
    h: float,
    spiky_grad: float,
    mass: float,
    f: wp.array(dtype=wp.vec3),
):
    i, j = wp.tid()
    if i != j:
        d = x[i] - x[j]
        r = wp.length(d)
        if r < h:
            s = (h - r) * (h - r) * spiky_grad
            coeff = -mass * (p[i] + p[j]) / (2.0 * rho[j]) * s
            wp.atomic_add(f, i, coeff * d / r)


@wp.kernel
def symplectic_euler(
    x: wp.array(dtype=wp.vec3),
    v: wp.array(dtype=wp.vec3),
    f: wp.array(dtype=wp.vec3),
    rho: wp.array(dtype=float),
    dt: float,
    x_out: wp.array(dtype=wp.vec3),
    v_out: wp.array(dtype=wp.vec3),
):
    i = wp.tid()
    v1 = v[i] + dt * f[i] / rho[i]
    v_out[i] = v1
    x_out[i] = x[i] + dt * v1


@wp.kernel
def spread_loss(x: wp.array(dtype=wp.vec3), target: wp.array(dtype=wp.vec3), loss: wp.array(dtype=float)):
    i = wp.tid()
    d = x[i] - target[i]
    wp.atomic_add(loss, 0, wp.dot(d, d))


@wp.kernel
def kinetic_energy(v: wp.array(dtype=wp.vec3), e: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(e, 0, 0.5 * MASS * wp.dot(v[i], v[i]))


def blob(n, seed=5):
    rng = np.random.default_rng(seed)
    base = np.array([(0.22 * (k % 3), 0.22 * (k // 3), 0.0) for k in range(n)])
    return (base + 0.03 * rng.normal(size=(n, 3))).astype(np.float32)
