"""Thin-film optics helpers for single-layer anti-reflection coatings."""
import warp as wp

FOUR_PI = wp.constant(12.566370614359172)


@wp.func
def film_cos(n: float, d: float, lam: float):
    # cosine of the round-trip phase 4 pi n d / lambda in the coating
    return wp.cos(FOUR_PI * n * d / lam)


@wp.func_grad(film_cos)
def adj_film_cos(n: float, d: float, lam: float, adj_ret: float):
    s = wp.sin(FOUR_PI * n * d / lam)
    wp.adjoint[n] += -adj_ret * s * FOUR_PI * d / lam
    wp.adjoint[d] += -adj_ret * s * 0.5 * FOUR_PI * n / lam  # expect: custom_adjoint


@wp.func
def coating_reflectance(n: float, d: float, n_sub: float, lam: float):
    r1 = (1.0 - n) / (1.0 + n)
    r2 = (n - n_sub) / (n + n_sub)
    c = film_cos(n, d, lam)
    num = r1 * r1 + r2 * r2 + 2.0 * r1 * r2 * c
    den = 1.0 + r1 * r1 * r2 * r2 + 2.0 * r1 * r2 * c
    return num / den
