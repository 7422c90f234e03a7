"""The one-line fix of every bug program, applied at its ``# expect:`` line.

("replace", text): the marked line becomes ``text`` (its indentation is kept);
("delete",): the marked line is removed.
"""
FIXES = {
    "b01_shelf_sound_transition_range": ("replace", "wp.adjoint[r0] += adj_ret * 10.0 / (r0 * LN10)"),
    "b02_soft_fin_quadratic_drag": ("replace", "wp.adjoint[v] += adj_ret * 2.0 * wp.abs(v)"),
    "b03_exoplanet_rv_eccentricity": ("replace", "wp.adjoint[e] -= adj_ret * wp.sin(em) / den"),
    "b04_pv_strings_capacity_weighted": ("replace", "tape.backward(grads={sq_err: wp.array(CAPACITY_KW / CAPACITY_KW.sum(), dtype=float)})"),
    "b05_grid_zone_dispatch_cost": ("replace", "cost.grad.assign(wp.array(NORTH.astype(np.float32), dtype=float))"),
    "b06_glacier_flowline_velocity_misfit": ("replace", "tape.backward(grads={res: wp.array(res_h / SIG_U**2, dtype=float)})"),
    "b07_carehome_network_pressure": ("replace", "self.lam = wp.zeros(N_NODE, dtype=float, requires_grad=True)"),
    "b08_stereo_bus_compressor": ("replace", "gain = wp.zeros(N, dtype=float, requires_grad=True)"),
    "b09_jump_knee_inverse_dynamics": ("replace", "tau = wp.zeros(N_FRAME, dtype=float, requires_grad=True)"),
    "b10_fhn_cable_ring_buffer": ("replace", "RING = N_STEPS + 1"),
    "b11_alpine_runoff_two_reservoir": ("replace", "states = [wp.zeros(N_BASIN, dtype=wp.vec2, requires_grad=requires_grad) for _ in range(N_STEPS + 1)]"),
    "b12_ring_road_lwr_detectors": ("replace", "out = wp.empty_like(rho)"),
    "b13_oral_pk_population_fit": ("replace", "tape.reset()"),
    "b14_battery_ecm_captured_fit": ("replace", "self.tape.zero()"),
    "b15_turbine_power_curve_scada": ("replace", "self.tape.reset()"),
    "b16_lake_thermocline_shortwave": ("delete",),
    "b17_snowmelt_degree_day_bands": ("replace", "wp.launch(band_temperature, dim=(N_DAY, N_BAND), inputs=[BASIN, prm], outputs=[temp])"),
    "b18_maize_rue_replayed_growth": ("replace", "wp.launch(grow_day, dim=N_FIELD, inputs=[prm, PAR_W, tt, d], outputs=[biomass])"),
    "b19_crosswell_traveltime_tomography": ("replace", "slow = wp.zeros((NX, NZ), dtype=float, requires_grad=True)"),
    "b20_school_rooms_reverberation": ("replace", "rm.absorbed = wp.zeros((N_ROOM, N_BAND), dtype=float, requires_grad=True)"),
    "b21_tide_gauge_harmonics": ("replace", "h = wp.zeros_like(T_W, requires_grad=True)"),
    "b22_sprint_start_air_drag": ("replace", "v_air = wp.sqrt(du * du + w[1] * w[1] + 1.0e-8)"),
    "b23_transit_route_choice_entropy": ("replace", "h = s * wp.log(wp.max(s, 1.0e-30))"),
    "b24_open_cluster_nbody_softening": ("replace", "rhat = wp.normalize(r)"),
}
