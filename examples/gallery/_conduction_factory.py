"""Kernel factories for the heat-exchanger models: one kernel per material law, its adjoint turned off for
forward-only (fast) use."""
import warp as wp


def make_conduction_kernel(law, fast=False):
    @wp.func
    def conductivity(T: float, k0: float):
        return law(T, k0)

    @wp.kernel(enable_backward=not fast)
    def conduct(T: wp.array(dtype=float), k0: wp.array(dtype=float), dt: float, T_out: wp.array(dtype=float)):
        i = wp.tid()
        n = T.shape[0]
        l = T[wp.max(i - 1, 0)]
        r = T[wp.min(i + 1, n - 1)]
        k = conductivity(T[i], k0[0])
        T_out[i] = T[i] + dt * k * (l - 2.0 * T[i] + r)

    return conduct


@wp.func
def linear_law(T: float, k0: float):
    return k0 * (1.0 + 0.01 * T)
