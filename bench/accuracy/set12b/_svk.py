"""Plane-stress St. Venant-Kirchhoff energy in Voigt notation."""
import warp as wp


@wp.func
def plane_stress_stiffness(young: float, nu: float):
    c = young / (1.0 - nu * nu)
    return c * wp.mat33(1.0, nu, 0.0, nu, 1.0, 0.0, 0.0, 0.0, 0.5 * (1.0 - nu))


@wp.func
def green_strain_voigt(F: wp.mat22):
    E = 0.5 * (wp.transpose(F) * F - wp.identity(n=2, dtype=float))
    eps = wp.vec3(E[0, 0], E[1, 1], E[0, 1])
    eps[2] = 2.0 * eps[2]  # expect: component_reassign
    return eps


@wp.func
def svk_energy_density(F: wp.mat22, young: float, nu: float):
    eps = green_strain_voigt(F)
    return 0.5 * wp.dot(eps, plane_stress_stiffness(young, nu) * eps)
