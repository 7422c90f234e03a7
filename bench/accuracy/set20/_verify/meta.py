"""One-sentence descriptions of every program, for MANIFEST.md."""
DESC = {
    "b01_ocean_wave_shoaling": "Nearshore wave shoaling (Hunt dispersion, group-speed shoaling, friction decay) calibrated to low- and high-tide gauge heights: wp.copy(depth, depth_hi) on the tape overwrites the low-tide depths the first shoaling launch read, so its adjoint uses high-tide depths.",
    "c01_ocean_wave_shoaling_tidebuf": "Same wave-shoaling calibration; the high-tide depths are wp.copy-ed into a separate buffer on the tape.",
    "b02_lava_channel_cooling": "Basaltic lava channel (Jeffreys velocity, exponential viscosity, radiative cooling; LavaChannel class): the distal-temperature launch writes into self.temp, the array the vent-station velocity launch read.",
    "c02_lava_channel_cooling_buffer": "Same lava-channel calibration; the distal temperatures go into a dedicated preallocated buffer.",
    "b03_coral_calcification": "Coral calcification (Gaussian thermal performance times sqrt(Omega_ar - 1)) at six reef flats: next month's SST is assign-ed into the taped SST array after recording and before tape.backward().",
    "c03_coral_calcification_staged": "Same calcification fit; next month's SST is assign-ed after tape.backward() and the gradient copy.",
    "b04_sailing_polar": "Dinghy speed polar (vec2 true-wind vectors, apparent wind, power law in apparent wind speed): the anemometer calibration is multiplied in place into wind.numpy(), a view of the taped wind array, before tape.backward().",
    "c04_sailing_polar_copy": "Same polar fit; the calibration is applied to wind.numpy().copy().",
}
DESC.update({
    "b05_insulin_bolus_effect": "Rapid-acting insulin bolus effect (ISF, action time constant) fitted to CGM drops: the kernel stores the dose into drop[i] and then rescales drop[i] in place, so the adjoint reads the rescaled value as the dose.",
    "c05_insulin_bolus_effect_local": "Same bolus-effect fit; the rescaling is done on a local variable and drop[i] is stored once.",
    "b06_microfluidic_capture": "Microfluidic capture chip (@wp.struct geometry, CaptureChip class, kernels in helper _chip.py): the depletion kernel stores the inlet concentration into conc[i] and rescales conc[i] in place by exp(-Da).",
    "c06_microfluidic_capture_plain": "Same capture-chip fit with helper _chip_plain.py, whose kernel rescales a local copy and stores once.",
    "b07_bee_colony_growth": "Honey-bee colony logistic growth with forager losses (weekly time-step loop), plain SGD by a Warp update kernel: the gradient is wp.clone-d from p.grad before tape.backward(), so every update uses zeros.",
    "c07_bee_colony_growth_after": "Same colony fit; p.grad is cloned after tape.backward().",
    "b08_climbing_rope_impact": "Climbing-rope impact force (stiffness EA, dissipated fraction) fitted with warp.optim.Adam: tape.zero() runs between tape.backward() and opt.step([p.grad]), so Adam consumes a cleared gradient.",
    "c08_climbing_rope_impact_order": "Same rope fit; tape.zero() runs after opt.step().",
})
DESC.update({
    "b09_satellite_drag_decay": "Cubesat orbital decay over 14 ordered tracking passes (drag scale, density scale height; @wp.func decay): each pass takes the altitude lost so far from the return value of wp.atomic_add on the running total and uses it in the predicted altitude.",
    "c09_satellite_drag_decay_prefix": "Same decay fit; the prefix sum is recomputed by a static loop over earlier passes, and the wp.atomic_add return value is unused.",
    "b10_beer_foam_collapse": "Beer-head formation and collapse in four glasses (time-step loop, bubble-to-glass scatter): the bubble kernel reads the survival head height from head_next, the array the same launch accumulates into with wp.atomic_add.",
    "c10_beer_foam_collapse_prev": "Same foam fit; the bubble kernel reads the previous step's head height.",
    "b11_additive_synth_voice": "Additive-synthesis stereo voice (vec2 samples, @wp.func partial sum, pan law): a three-stage damping loop assigns s[0] = s[0] * gain in place on the local vec2, so the adjoint of the earlier stages is wrong.",
    "c11_additive_synth_voice_rebuild": "Same voice match; each damping stage rebuilds the vec2.",
    "b12_drone_camera_calibration": "Drone camera self-calibration (vec3 GCPs, mat33 intrinsics, per-frame zoom matrix): the aspect-corrected focal length is assigned into K[0, 0] after K was built from the focal length, and the overwritten entry's adjoint still reaches the focal length.",
    "c12_drone_camera_calibration_pp": "Same calibration; K is built with the aspect-corrected focal length and only the constant principal point K[0, 2] is assigned afterwards.",
    "b13_river_bedload_flume": "Meyer-Peter & Mueller bedload calibration on eleven flume runs: helper _sediment.py sets the module option enable_backward=False, so the transport kernel on the tape has no adjoint (zero gradient).",
    "c13_river_bedload_flume_opts": "Same bedload fit with helper _bedload.py, whose module options keep enable_backward on.",
    "b14_chocolate_tempering": "Chocolate tempering (Avrami crystallisation, Krieger-Dougherty viscosity, three kernels): the Avrami kernel is declared @wp.kernel(enable_backward=False) but runs on the tape, so both parameters get zero gradient.",
    "c14_chocolate_tempering_report": "Same tempering fit; only a seed-index report kernel launched outside the tape has enable_backward=False.",
})
DESC.update({
    "b15_hill_muscle_force": "Hill force-velocity relation of knee extensors (vmax, curvature) from dynamometer trials: the @wp.func_grad gives the curvature partial on the eccentric (lengthening) branch with the wrong sign; the concentric branch is right.",
    "c15_hill_muscle_force_adjoint": "Same Hill fit with the eccentric curvature partial corrected.",
    "b16_exoplanet_transit": "Exoplanet transit depth with limb darkening (radius ratio k, coefficient u; TransitFit class; @wp.func + @wp.func_grad in helper _transit.py): on the partial-overlap (ingress/egress) branch the k partial of k (1 + k - z) / 2 drops the second k term; the full-overlap branch is right.",
    "c16_exoplanet_transit_limb": "Same transit fit with helper _limbdark.py, whose partial-overlap k partial is complete.",
})
DESC.update({
    "b17_mri_t2_relaxometry": "Multi-echo MRI T2 mapping (2-D launch over voxels x echoes) with the Rician magnitude floor and the loss on the host: tape.backward(grads={sig: ...}) is seeded with 2 r / N, missing the chain factor s / sqrt(s^2 + sigma^2) of the magnitude.",
    "c17_mri_t2_relaxometry_chain": "Same T2 fit; the host seed includes the factor s / mag.",
    "b18_coffee_roast_curve": "Drum coffee-roast bean temperature (per-step launches, Newton heating plus exotherm) fitted with a host Huber loss: curve.grad is assigned r / N, the squared-loss derivative, instead of the clipped Huber derivative.",
    "c18_coffee_roast_curve_huber": "Same roast fit; curve.grad is assigned clip(r, -delta, delta) / N.",
    "b19_flood_muskingum_routing": "Two-reach Muskingum flood routing (Reach class, one launch per time step): inside the tape the reach-1 outflow is copied through wp.array(q1.numpy()) before reach 2, so only reach 2 contributes to the K and X gradient.",
    "c19_flood_muskingum_routing_peak": "Same routing fit; inside the tape the outflow is read to the host only to log its peak, and reach 2 routes the taped array.",
    "b20_concrete_maturity": "Concrete maturity (Nurse-Saul) and cylinder strength (datum temperature, sensor offset): the logger mean temperature is fed to the strength kernel through wp.array([float(tm.numpy()[0])]) on the tape, so the sensor-offset gradient is zero.",
    "c20_concrete_maturity_clone": "Same strength fit; the mean temperature is wp.clone-d on the device, and read on the host after tape.backward().",
})
DESC.update({
    "b21_tidal_stream_array": "Tidal-stream turbine array (power coefficient, ebb wake factor): the power array has retain_grad=True and the ebb-wake kernel rewrites the waked turbines after the rotor-power kernel, so their power gradient reaches Cp through both launches.",
    "c21_tidal_stream_array_single": "Same array calibration; one kernel applies the wake with wp.where, so the retain_grad=True power array has a single taped writer.",
    "b22_bird_migration_energy": "Stork migration flight energetics (FlightModel class; drag coefficient, soaring factor): the daily-energy array has retain_grad=True, is filled by wp.copy from the flapping cost and rewritten for soaring legs by a second launch.",
    "c22_bird_migration_energy_flap": "Same energetics fit; retain_grad=True is on the flapping-cost array, written by one launch only.",
    "b23_marathon_pacing": "Marathon split times (cruise speed, quadratic fatigue) fitted with warp.optim.SGD and a fresh tape per iteration: after each step the loop zeroes the split array's gradient instead of the tape's, so the parameter gradient accumulates.",
    "c23_marathon_pacing_tapezero": "Same pacing fit; tape.zero() after each step.",
    "b24_hydroponic_nitrate_uptake": "Hydroponic nitrate uptake (Michaelis-Menten, static day loop in the kernel, 2-D arrays; NutrientFitter class with warp.optim.Adam over two parameter arrays): each iteration records on a fresh wp.Tape() and nothing zeroes the parameter gradients, which accumulate.",
    "c24_hydroponic_nitrate_uptake_zero": "Same uptake fit; a fresh tape per iteration and self.tape.zero() after each Adam step.",
})
