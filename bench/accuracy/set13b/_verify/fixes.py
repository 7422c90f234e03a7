"""The one-line fix of every bug program, applied at its ``# expect:`` line.

("replace", text): the marked line becomes ``text`` (its indentation is kept);
("delete",): the marked line is removed.
"""
FIXES = {
    "b01_fwi_three_buffer_rotation": ("replace", "u_prev, u, u_next = u, u_next, wp.empty_like(u_next)"),
    "b02_smoke_wind_copy_back": ("replace", "rho = rho_new"),
    "b03_sph_shared_density_buffer": ("replace", "rho = wp.zeros(self.n, dtype=float, requires_grad=True)"),
}
FIXES.update({
    "b04_darcy_zones_unit_report": ("replace", "k_day = k_day * SECONDS_PER_DAY"),
    "b05_swe_bathymetry_validation_event": ("replace", "val_loss = validate(Channel(NSTEPS), ctrl)"),
})
FIXES.update({
    "b06_sph_tait_pressure_buffer": ("replace", '"p": [wp.zeros(N, dtype=float, requires_grad=True) for _ in range(STEPS)],'),
    "b07_plate_conductivity_strips": ("replace", "T = [T0] + [wp.empty_like(T0, requires_grad=True) for _ in range(NSTEPS)]"),
})
FIXES.update({
    "b08_fwi_adam_fresh_tape": ("replace", "vel.grad.zero_()"),
    "b09_rod_log_diffusivity_gd": ("replace", "m.grad.zero_()"),
})
FIXES.update({
    "b10_tsunami_source_retain_sensitivity": ("replace", "h = [wp.zeros(NC + 2, dtype=float, requires_grad=True) for _ in range(NSTEPS + 1)]"),
    "b11_acoustic_source_localisation_mean": ("replace", "tape.backward(grads={per_rec: wp.full(NREC, 1.0 / NREC, dtype=float)})"),
    "b12_fwi_host_adjoint_source": ("replace", "adj_src = -residual"),
})
FIXES.update({
    "b13_aquifer_recharge_preconditioned": ("replace", "g = wp.clone(self.r.grad)"),
    "b14_sph_neighbour_list_atomic": ("replace", "slot = j"),
})
FIXES.update({
    "b15_basin_compaction_atomic_depth": ("replace", "top = basin.depth_to_top(thick, i)"),
})
FIXES.update({
    "b16_plume_source_offtape_injection": ("replace", "wp.launch(inject_leak, dim=(NX, NY), inputs=[c_new, leak, DT])"),
    "b17_furnace_wall_flux_restarts": ("delete",),
})
FIXES.update({
    "b18_channel_manning_friction": ("replace", "q_out[i] = q_star / (1.0 + dt * manning_drag(n, h_new, q_star))"),
    "b19_tracer_retardation_layers": ("replace", "c_out[i, j] = dt * (DISP * lap - VX * dcdx) / retard[layer]"),
})
FIXES.update({
    "b20_sph_sloshing_tank_excitation": ("replace", "a += wp.vec2(-prm[0] * wp.sin(OMEGA * t), 0.0)"),
    "b21_rotating_swe_wind_stress": ("replace", "Un = Un + dt * wp.vec3(0.0, prm[0], 0.0)"),
})
FIXES.update({
    "b22_ray_tomography_runtime_steps": ("replace", "for k in range(RAY_STEPS):"),
    "b23_reactive_column_substeps": ("replace", "for s in range(NSUB):"),
})
FIXES.update({
    "b24_beach_runup_dry_cells": ("replace", "return wp.sqrt(G * wp.max(h, EPS_H))"),
    "b25_hypocentre_start_at_station": ("replace", "dist = wp.length(d)"),
})
FIXES.update({
    "b26_waterflood_corey_exponents": ("replace", "wp.adjoint[s] += adj_ret * n * wp.pow(s, n - 1.0)"),
    "b27_dam_break_celerity_adjoint": ("replace", "wp.adjoint[h] += adj_ret * 0.5 * G / wp.sqrt(G * h)"),
})
FIXES.update({
    "b28_smoke_buoyancy_projection": ("delete",),
})
