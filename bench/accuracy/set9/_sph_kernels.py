"""Symmetric SPH pressure force with a length whose derivative is guarded at r = 0."""

import warp as wp


@wp.func
def safe_length(d: wp.vec3):
    return wp.length(d)


@wp.func_grad(safe_length)
def adj_safe_length(d: wp.vec3, adj_ret: float):
    l = wp.length(d)
    if l > 1.0e-9:
        wp.adjoint[d] = d * (adj_ret / l)  # expect: custom_adjoint


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
        r = safe_length(d)
        if r < h:
            s = (h - r) * (h - r) * spiky_grad
            coeff = -mass * (p[i] + p[j]) / (2.0 * rho[j]) * s
            wp.atomic_add(f, i, coeff * d / r)
