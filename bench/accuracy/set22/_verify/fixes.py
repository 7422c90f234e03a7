"""The one-line fix of every bug program, applied at its ``# expect:`` line.

("replace", text): the marked line becomes ``text`` (its indentation is kept;
a ``\\n`` in ``text`` starts a further line at the same indentation);
("delete",): the marked line is removed.
"""
FIXES = {
    "b01_vineyard_frost_fans": ("replace", "t_air = t_night"),
    "b02_ski_wax_glide": ("replace", "self.snow_t = wp.zeros(N_RUN, dtype=float, requires_grad=True)\nwp.launch(melt_warming, dim=N_RUN, inputs=[self.p, self.speed, self.mu1, self.snow_base], outputs=[self.snow_t])"),
    "b03_textile_dye_uptake": ("replace", "conc = wp.array(RINSE, dtype=float)"),
    "b04_archery_arrow_drag": ("replace", "wp.adjoint[cd] += adj_ret * (2.0 * V_STALL * v - V_STALL * V_STALL)"),
    "b05_bread_dough_proofing": ("replace", "wp.adjoint[width] += adj_ret * d / (2.0 * width) / width"),
    "b06_anaesthesia_depth": ("replace", "wp.adjoint[k] += adj_ret * wp.vec2(-k[1], 2.0 * ce - k[0])"),
    "b07_wind_turbine_power_curve": ("replace", "seed = wp.array((2.0 * resid / N_REC).astype(np.float32), dtype=float)"),
    "b08_measles_outbreak_sir": ("replace", "prev.grad.assign((2.0 * rel / OBS).astype(np.float32))"),
    "b09_fishery_stock_assessment": ("replace", "tape.backward(grads={cpue: wp.array(np.tanh(r).astype(np.float32), dtype=float)})"),
    "b10_pcb_hotspot_thermal": ("replace", "temp = wp.zeros(N_PART, dtype=float, requires_grad=True)"),
    "b11_cheese_ripening_moisture": ("replace", "moist = wp.zeros(N_WHEEL, dtype=float, requires_grad=True)"),
    "b12_microgrid_voltage": ("replace", "N_SWEEP = 250"),
    "b13_district_heating_loop": ("replace", "N_ITER = 200"),
    "b14_ship_roll_damping": ("replace", "RING = N_STEP + 1"),
    "b15_perfume_note_evaporation": ("replace", "wp.launch(evaporate, dim=(N_NOTE, N_TIME), inputs=[params, wp.array(VAPOUR, dtype=float), wp.array(TIMES, dtype=float)], outputs=[frac])"),
    "b16_rowing_boat_speed": ("delete",),
    "b17_aquarium_oxygen": ("delete",),
    "b18_ski_jump_flight": ("replace", "g = params.grad"),
    "b19_compost_heap_temperature": ("delete",),
    "b20_paint_film_drying": ("replace", "film[i] = (solids + (wet[i] - solids) * wp.exp(-p[0] * minutes[i] / 10.0)) * (1.0 + 0.6 * p[1] * humid[i] * humid[i])"),
    "b21_ferry_vehicle_deck": ("replace", "wp.atomic_add(deck_load, 0, w)\nbefore = float(0.0)\nfor j in range(N_VEH):\n    if j < i:\n        before += p[0] * mass[j]"),
    "b22_hot_air_balloon_ascent": ("replace", "opt.step([params.grad])\ntape.zero()"),
    "b23_tennis_ball_bounce": ("replace", "@wp.kernel"),
    "b24_tower_crane_jib_sag": ("replace", "hook = wp.vec3(hook[0], hook[1], hook[2] - compliance * load * (r / 50.0) * (r / 50.0) * (1.0 + 0.3 * hook[1] * hook[1] / (r * r)))"),
}
