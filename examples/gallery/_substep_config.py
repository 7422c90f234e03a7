"""Simulation settings shared by the sub-stepping programs."""

SUBSTEPS = 24  # more than Warp unrolls (max_unroll 16): range(SUBSTEPS) is a dynamic loop
SUBSTEPS_FEW = 8
