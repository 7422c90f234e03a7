"""One-sentence descriptions of every program, for MANIFEST.md."""
DESC = {
    "b01_fwi_three_buffer_rotation": "1-D acoustic FWI of three layer velocities: the leapfrog rotates three preallocated wavefield buffers (u_prev, u, u_next = u, u_next, u_prev) on one tape, so step t+2 overwrites the field whose Laplacian step t's velocity adjoint needs.",
    "c01_fwi_wavefield_history": "1-D acoustic FWI: every time level is written into its own buffer of a preallocated wavefield history.",
    "b02_smoke_wind_copy_back": "Uniform wind from a smoke plume (2-D semi-Lagrangian advection, bilinear back-tracing): each step's fresh output is wp.copy-ed back over the density the advection kernel read, on the tape.",
    "c02_smoke_wind_rebind_frames": "Smoke-plume wind estimation: the state is rebound to each step's fresh buffer; wp.copy only writes snapshot frames nothing reads.",
    "b03_sph_shared_density_buffer": "SPH dam-break calibration of EOS stiffness and viscosity (helper _sph.py): one density scratch array is reused by every step, so later density launches overwrite what earlier pressure-force launches read nonlinearly.",
    "c03_sph_density_per_step": "SPH dam-break calibration: one density array per step; only the acceleration buffer, read linearly by the integrator, is shared.",
}
DESC.update({
    "b04_darcy_zones_unit_report": "Four-zone hydraulic conductivity from well heads (Jacobi-relaxed Darcy flow): the m/day report multiplies K in place through K.numpy(), a CPU view, between recording and backward.",
    "c04_darcy_zones_unit_report_copy": "Darcy zone-conductivity inversion: the m/day report builds a new NumPy array from the K.numpy() view.",
    "b05_swe_bathymetry_validation_event": "Channel bathymetry from surge gauge records (helper _channel.py, 1-D shallow water): a held-out validation event is simulated untaped on the same simulator's state history before tape.backward().",
    "c05_swe_bathymetry_validate_after_backward": "Channel bathymetry inversion: the validation event reuses the shared simulator only after backward has consumed the recorded states.",
})
DESC.update({
    "b06_sph_tait_pressure_buffer": "SPH column slump with a Tait EOS kernel: the per-step pressure arrays are allocated without requires_grad, so the EOS stiffness gets no gradient (only viscosity does).",
    "c06_sph_tait_pressure_like_rho": "SPH Tait-EOS calibration: pressure buffers come from zeros_like of the requires_grad density arrays and inherit the flag.",
    "b07_plate_conductivity_strips": "Three-strip plate conductivity from thermocouples (explicit 2-D conduction): the temperature history is made with empty_like of an initial field without requires_grad, so only the smoothness penalty reaches the parameters.",
    "c07_plate_conductivity_strips_grad_ic": "Composite-plate conductivity fit: the initial temperature field has requires_grad, so the empty_like history inherits it.",
})
DESC.update({
    "b08_fwi_adam_fresh_tape": "1-D FWI of five velocity nodes with warp.optim.Adam (helper _wave1d.py): tape.zero() is called on the freshly created tape of each iteration, which has no gradients registered yet, so vel.grad accumulates.",
    "c08_fwi_adam_zero_after_step": "1-D FWI with Adam and a fresh tape per iteration: tape.zero() runs after the optimiser step, on the tape that recorded the iteration.",
    "b09_rod_log_diffusivity_gd": "Six-zone log-diffusivity of a heated rod (diffusivity held in a @wp.struct): each iteration zeroes the mapped diffusivity's gradient instead of the parameter gradient m.grad, which accumulates.",
    "c09_rod_log_diffusivity_zero_both": "Rod log-diffusivity descent: the gradients of both m and the mapped diffusivity are zeroed every iteration.",
})
DESC.update({
    "b10_tsunami_source_retain_sensitivity": "Tsunami source centre and amplitude from wall gauges (1-D shallow water with ghost cells): the surface states have retain_grad=True while both the update kernel and a separate reflective-wall pass write the ghost cells, so their gradient is counted twice.",
    "c10_tsunami_source_walls_in_kernel": "Tsunami source location with retain_grad states: the reflective walls are mirrored inside the single update kernel, one writer per state.",
    "b11_acoustic_source_localisation_mean": "2-D acoustic source localisation from a surface receiver line: the objective is the mean of per-receiver misfits but backward is seeded with ones (8-fold gradient).",
    "c11_acoustic_source_localisation_mean_seed": "2-D acoustic source localisation: backward seeded with 1/R per receiver, matching the mean objective.",
    "b12_fwi_host_adjoint_source": "1-D FWI with the misfit formed in NumPy (helper _wave1d.py): the adjoint source seeding the traces is d_obs - d_syn, the wrong sign for 0.5 ||d_obs - d_syn||^2.",
    "c12_fwi_host_adjoint_source_sign": "1-D FWI with a host-side misfit: the adjoint source is d_syn - d_obs.",
})
DESC.update({
    "b13_aquifer_recharge_preconditioned": "Monthly aquifer recharge from well hydrographs (linearised Boussinesq): g = r.grad keeps a reference, tape.zero() runs right after backward, so the month-smoothing preconditioner and the descent step read zeros.",
    "c13_aquifer_recharge_zero_after_update": "Monthly recharge inversion: the r.grad reference is smoothed and applied before tape.zero().",
    "b14_sph_neighbour_list_atomic": "SPH dam break with a per-step neighbour list: the pair kernel stores each pair distance at the slot returned by wp.atomic_add, which the backward pass does not replay.",
    "c14_sph_neighbour_index_then_geometry": "SPH neighbour list: atomic slot compaction writes only integer indices; pair distances are recomputed from the list in a second kernel.",
})
DESC.update({
    "b15_basin_compaction_atomic_depth": "Athy porosity-depth parameters from a porosity log (helper _basin.py): each layer's burial depth is the running total returned by wp.atomic_add (an atomic prefix sum), which the backward pass does not replay.",
    "c15_basin_compaction_explicit_depth": "Athy compaction fit: burial depths come from an explicit in-kernel sum over the layers above; the atomic only accumulates the column total, its return value unused.",
})
DESC.update({
    "b16_plume_source_offtape_injection": "Aquifer leak position and rate from monitoring wells (2-D advection-diffusion): the in-place leak-injection launch is made with record_tape=False, so no gradient reaches the leak parameters.",
    "c16_plume_source_offtape_velocity": "Aquifer leak localisation: only the parameter-free Darcy-velocity launch is kept off the tape; the injection is recorded.",
    "b17_furnace_wall_flux_restarts": "Daily inner-face heat flux of a furnace wall (nonlinear 1-D conduction): each day restarts from a new array rebuilt from the host checkpoint, cutting the gradient between days.",
    "c17_furnace_wall_flux_checkpoint_only": "Furnace-wall flux inversion: daily restart checkpoints are written to the host while the run continues from the device state.",
})
DESC.update({
    "b18_channel_manning_friction": "Manning roughness of two river reaches from flood stage records (1-D shallow water): the semi-implicit friction is applied as q_out[i] /= 1 + dt g n^2 |u| / h^(4/3) in place, which breaks the gradient of the roughness factor.",
    "c18_channel_manning_friction_local": "Manning roughness inversion: the friction divides the local predictor q* in one expression stored once.",
    "b19_tracer_retardation_layers": "Two-layer sorption retardation factors from tracer breakthrough curves (2-D advection-dispersion): the increment is stored, divided in place by R (c_out[i, j] /= R), then the old concentration added.",
    "c19_tracer_retardation_single_store": "Tracer retardation fit: c + dt (D lap c - v dc/dx) / R computed in one expression and stored once.",
})
DESC.update({
    "b20_sph_sloshing_tank_excitation": "Shaken SPH tank (helper _sph.py): after the pair loop accumulates the vec2 acceleration, the frame excitation is applied with a[0] = a[0] - A sin(omega t), a component reassignment that corrupts the viscosity gradient.",
    "c20_sph_sloshing_tank_vector_add": "Shaken SPH tank: the frame acceleration is added with a += wp.vec2(...).",
    "b21_rotating_swe_wind_stress": "Rotating 2-D shallow water with a wp.vec3 state (h, hu, hv): the wind stress is added with Un[1] = Un[1] + dt tau after Un was built from fluxes and Coriolis terms.",
    "c21_rotating_swe_vector_sources": "Rotating shallow-water basin: Coriolis and wind-stress sources are added as whole vec3 increments.",
})
DESC.update({
    "b22_ray_tomography_runtime_steps": "Bent-ray travel-time tomography (v0, depth gradient, anomaly amplitude): each thread marches its ray in a loop whose bound is the runtime kernel argument nsteps, carrying the position and direction nonlinearly.",
    "c22_ray_tomography_static_steps": "Bent-ray tomography: the ray-marching loop has the compile-time constant bound RAY_STEPS = 16 and is unrolled.",
    "b23_reactive_column_substeps": "Biodegradation rate and seepage velocity of a reactive soil column: the per-cell sub-cycling of c' = -k c^2 / (1 + c) loops over a runtime substep count, carrying c multiplicatively.",
    "c23_reactive_column_static_substeps": "Reactive soil column: the reaction sub-cycling loops over the compile-time constant NSUB = 4 (unrolled).",
})
DESC.update({
    "b24_beach_runup_dry_cells": "Offshore wave amplitude and width from run-up gauges on a sloping beach (wet-dry 1-D shallow water): the face dissipation speed sqrt(g h) is evaluated at exactly dry cells, whose adjoint is inf * 0 = NaN.",
    "c24_beach_runup_clamped_speed": "Wet-dry beach run-up: the gravity-wave speed clamps the depth with wp.max before the square root.",
    "b25_hypocentre_start_at_station": "Earthquake hypocentre and origin time from P picks: the search starts at the first-arriving station, where the source-station distance wp.sqrt(wp.dot(d, d)) is zero and its adjoint NaN.",
    "c25_hypocentre_length_guarded": "Hypocentre location started at the first-arriving station with distances from wp.length, whose adjoint is guarded at zero.",
})
DESC.update({
    "b26_waterflood_corey_exponents": "Corey exponents from a Buckley-Leverett waterflood history match: the hand-written @wp.func_grad of kr = s^n in helper _corey.py uses n s^n instead of n s^(n-1) for the saturation derivative.",
    "c26_waterflood_corey_model": "Waterflood history match with a correct Corey custom adjoint (n s^(n-1), +=) in helper _corey_model.py.",
    "b27_dam_break_celerity_adjoint": "Dam-break reservoir and tailwater levels (local Lax-Friedrichs shallow water): the custom adjoint of the celerity sqrt(g h), called twice on the same cell depth, assigns wp.adjoint[h] = ... and wipes the depth's other adjoint contributions.",
    "c27_dam_break_celerity_accumulate": "Dam-break level inversion: the celerity custom adjoint accumulates with +=.",
})
DESC.update({
    "b28_smoke_buoyancy_projection": "Smoke-plume buoyancy and source strength (2-D stable fluids): the Jacobi pressure-projection helper _pressure.py is built with module option enable_backward=False, so no gradient passes the projection.",
    "c28_smoke_buoyancy_forward_only_flags": "Smoke-plume fit with a differentiable Jacobi projection; only an integer wall-flag kernel, launched once off the tape, is built with enable_backward=False.",
})
