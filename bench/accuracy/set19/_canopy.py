"""Canopy helpers for the daily wheat growth model: leaf area from biomass."""
import warp as wp


@wp.kernel
def leaf_area_kernel(par: wp.array(dtype=float), biomass: wp.array(dtype=float), lai: wp.array(dtype=float)):
    i = wp.tid()
    # specific leaf area (m^2 / g) times the leaf share of above-ground biomass (g / m^2)
    lai[i] = par[2] * 0.01 * 0.45 * biomass[i]


def leaf_area_index(par, biomass):
    lai = wp.zeros(biomass.shape[0], dtype=float)  # expect: requires_grad
    wp.launch(leaf_area_kernel, dim=biomass.shape[0], inputs=[par, biomass], outputs=[lai])
    return lai
