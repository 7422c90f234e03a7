"""Corey relative permeability kr = s^n with a hand-written adjoint.

wp.pow's automatic adjoint is NaN at s = 0 (the n-derivative needs log s),
and a flooded core starts at exactly zero mobile water saturation, so the
derivatives are written out with the s = 0 limits.
"""
import warp as wp


@wp.func
def corey(s: float, n: float):
    return wp.pow(s, n)


@wp.func_grad(corey)
def adj_corey(s: float, n: float, adj_ret: float):
    if s > 0.0:
        wp.adjoint[s] += adj_ret * n * wp.pow(s, n - 1.0)
        wp.adjoint[n] += adj_ret * wp.pow(s, n) * wp.log(s)
