"""The one-line fix of every bug program, applied at its ``# expect:`` line.

("replace", text): the marked line becomes ``text`` (its indentation is kept);
("delete",): the marked line is removed.
"""
FIXES = {
    "b01_aquifer_theis_drawdown": ("replace", "wp.adjoint[u] += adj_ret * w * (-1.0 - 1.0 / u + 1.0 / (u + 0.6) - 1.0 / (u + 1.6))"),
    "b02_seismic_ground_motion": ("replace", "wp.adjoint[b2] += -adj_ret * wp.log(r / R_HINGE)"),
}
FIXES.update({
    "b03_heat_exchanger_recycle": ("replace", "for sweep in range(200):"),
    "b04_citation_pagerank": ("replace", "for it in range(220):"),
    "b05_bond_yield_curve": ("replace", "seed = 2.0 * (price_np - P_MKT) / P_MKT**2 / len(P_MKT)"),
    "b06_cepheid_photometry": ("replace", "flux.grad.assign((2.0 * r / SIGMA**2 * (-2.5 / (np.log(10.0) * f))).astype(np.float32))"),
})
FIXES.update({
    "b07_sir_epidemic_regions": ("replace", "for day in range(WINDOW):"),
    "b08_lynx_hare_population": ("replace", "for k in range(N_SUB):"),
})
FIXES.update({
    "b09_fishery_surplus_production": ("replace", "tape.zero()"),
    "b10_hplc_retention_adam": ("replace", "self.tape.zero()"),
})
FIXES.update({
    "b11_freeway_traffic_ctm": ("replace", "rho_next = wp.zeros_like(rho)"),
    "b12_steel_jmak_heat_treatment": ("replace", "temps = wp.array(T_STAGE2, dtype=float)"),
})
FIXES.update({
    "b13_clay_consolidation_staged": ("replace", "u_mid = u"),
    "b14_water_main_friction": ("replace", "wp.copy(f_trunk, f)"),
})
FIXES.update({
    "b15_lens_exit_surface_spot": ("replace", "cos_t = wp.where(arg > 0.0, wp.sqrt(wp.max(arg, 1.0e-12)), 0.0)"),
    "b16_radio_foliage_path_loss": ("replace", "veg = wp.where(depth[i] > 0.0, par[1] * wp.pow(wp.max(depth[i], 1.0e-6), par[2]), 0.0)"),
})
FIXES.update({
    "b17_catalyst_langmuir_hinshelwood": ("replace", "self.vacant = wp.zeros(self.n, dtype=float, requires_grad=True)"),
    "b18_wheat_canopy_growth": ("replace", "lai = wp.zeros(biomass.shape[0], dtype=float, requires_grad=True)"),
})
FIXES.update({
    "b19_polymer_melt_rheometry": ("replace", "eta = wp.zeros(len(SHEAR), dtype=float, requires_grad=True)"),
    "b20_tokamak_confinement_scaling": ("replace", "self.tau = wp.zeros(self.n, dtype=float, requires_grad=True)"),
})
FIXES.update({
    "b21_robot_arm_identification": ("replace", "self.n_buf = N_STEPS + 1"),
    "b22_javelin_flight_aero": ("replace", "RING = N_STEPS + 1"),
})
FIXES.update({
    "b23_irrigation_soil_water": ("replace", "et0_next = wp.array(ET0_NEXT, dtype=float)"),
    "b24_wildfire_spread_forecast": ("replace", "moisture = wp.array(MOIST_TOMORROW, dtype=float)"),
})
