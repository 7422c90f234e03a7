"""Kepler's equation E - e sin E = M for radial-velocity fits.

Newton iterations on [0, pi]; the other half of the orbit is solved on the
mirrored anomaly 2 pi - M for symmetric convergence. The derivatives come
from the implicit function theorem (a hand-written adjoint, so the Newton
loop is not differentiated).
"""
import warp as wp

PI = 3.141592654
TWO_PI = 6.283185307


@wp.func
def solve_half(m: float, e: float):
    ea = m + e * wp.sin(m)
    if e > 0.8:
        ea = PI
    for _ in range(12):
        ea = ea - (ea - e * wp.sin(ea) - m) / (1.0 - e * wp.cos(ea))
    return ea


@wp.func
def eccentric_anomaly(m: float, e: float):
    turns = TWO_PI * wp.floor(m / TWO_PI)
    mr = m - turns
    if mr > PI:
        return turns + TWO_PI - solve_half(TWO_PI - mr, e)
    return turns + solve_half(mr, e)


@wp.func_grad(eccentric_anomaly)
def adj_eccentric_anomaly(m: float, e: float, adj_ret: float):
    mr = m - TWO_PI * wp.floor(m / TWO_PI)
    if mr > PI:
        em = solve_half(TWO_PI - mr, e)
        den = 1.0 - e * wp.cos(em)
        wp.adjoint[m] += adj_ret / den
        wp.adjoint[e] -= adj_ret * wp.sin(em) / den
    else:
        ea = solve_half(mr, e)
        den = 1.0 - e * wp.cos(ea)
        wp.adjoint[m] += adj_ret / den
        wp.adjoint[e] += adj_ret * wp.sin(ea) / den


@wp.func
def true_anomaly(ea: float, e: float):
    return 2.0 * wp.atan2(wp.sqrt(1.0 + e) * wp.sin(0.5 * ea), wp.sqrt(1.0 - e) * wp.cos(0.5 * ea))
