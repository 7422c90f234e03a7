"""The one-line fix of every bug program, applied at its ``# expect:`` line.

("replace", text): the marked line becomes ``text`` (its indentation is kept;
a ``\\n`` in ``text`` starts a further line at the same indentation);
("delete",): the marked line is removed.
"""
FIXES = {
    "b01_ocean_wave_shoaling": ("replace", "depth = depth_hi"),
    "b02_lava_channel_cooling": ("replace", "t_down = wp.zeros(self.n, dtype=float, requires_grad=True)"),
    "b03_coral_calcification": ("delete",),
    "b04_sailing_polar": ("replace", "tws_np = tws_np * ANEMO_CAL"),
}
FIXES.update({
    "b05_insulin_bolus_effect": ("replace", "drop[i] = dose[i] * p[0] * (1.0 - (1.0 + x) * wp.exp(-x))"),
    "b06_microfluidic_capture": ("replace", "conc[i] = inlet[i] * wp.exp(-da)"),
    "b07_bee_colony_growth": ("replace", "g = p.grad"),
    "b08_climbing_rope_impact": ("delete",),
})
FIXES.update({
    "b09_satellite_drag_decay": ("replace", "wp.atomic_add(cum_decay, 0, dh)\nbefore = float(0.0)\nfor j in range(N_PASS):\n    if j < i:\n        before += pass_decay(p, dt[j], f107[j])"),
    "b10_beer_foam_collapse": ("replace", "h = head[g]"),
    "b11_additive_synth_voice": ("replace", "s = wp.vec2(s[0] * p[1], s[1])"),
    "b12_drone_camera_calibration": ("replace", "K = wp.mat33(f * p[1], 0.0, CX, 0.0, f, CY, 0.0, 0.0, 1.0)"),
    "b13_river_bedload_flume": ("replace", 'wp.set_module_options({"enable_backward": True})'),
    "b14_chocolate_tempering": ("replace", "@wp.kernel"),
})
FIXES.update({
    "b15_hill_muscle_force": ("replace", "wp.adjoint[a] += -adj_ret * 0.4 * w / (a * a * d * d)"),
    "b16_exoplanet_transit": ("replace", "wp.adjoint[k] += adj_ret * 0.5 * (1.0 + 2.0 * k - z) * (1.0 - u) / c"),
})
FIXES.update({
    "b17_mri_t2_relaxometry": ("replace", "tape.backward(grads={sig: wp.array((seed * s / mag).astype(np.float32), dtype=float)})"),
    "b18_coffee_roast_curve": ("replace", "curve.grad.assign((np.clip(r, -DELTA, DELTA) / N_STEP).astype(np.float32))"),
    "b19_flood_muskingum_routing": ("replace", "q_mid = q1"),
    "b20_concrete_maturity": ("replace", "t_ref = tm"),
})
FIXES.update({
    "b21_tidal_stream_array": ("replace", "power = wp.zeros(N_TURB, dtype=float, requires_grad=True)"),
    "b22_bird_migration_energy": ("replace", "self.energy = wp.zeros(N_LEG, dtype=float, requires_grad=True)"),
    "b23_marathon_pacing": ("replace", "tape.zero()"),
    "b24_hydroponic_nitrate_uptake": ("replace", "self.tape.reset()"),
})
