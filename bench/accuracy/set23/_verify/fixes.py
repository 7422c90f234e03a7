"""The one-line fix of every bug program, applied at its ``# expect:`` line.

("replace", text): the marked line becomes ``text`` (its indentation is kept;
a ``\\n`` in ``text`` starts a further line at the same indentation);
("delete",): the marked line is removed.
"""
FIXES = {
    "b01_asphalt_paving_cooling": ("replace", "lay = lay_second"),
    "b02_tea_steeping": ("replace", "warm = self.temp\nself.temp = wp.zeros(N_CUP, dtype=float)\nwp.launch(cooled, dim=N_CUP, inputs=[warm], outputs=[self.temp])"),
    "b03_mushroom_flush_yield": ("replace", "humid = wp.array(HUMID2, dtype=float)"),
    "b04_car_suspension_damper": ("replace", "wp.adjoint[c] += adj_ret * (V_KNEE + 0.35 * (v - V_KNEE))"),
    "b05_maple_syrup_boiling": ("replace", "wp.adjoint[b] += adj_ret * (brix - BRIX_SYRUP) * (brix - BRIX_SYRUP)"),
    "b06_led_efficiency_droop": ("replace", "wp.adjoint[k] += adj_ret * wp.vec2(1.0 / den, -k[0] * (i - I_PEAK) / (den * den))"),
    "b07_tablet_dissolution": ("replace", "seed = 2.0 * WEIGHT * resid / 10.0 / N_T"),
    "b08_ice_cream_freezing": ("replace", "self.ice.grad.assign((2.0 * lr / pred).astype(np.float32))"),
    "b09_gas_pipeline_pressure": ("replace", "seed.assign((2.0 * (delivered - 40.0) / N_LINE / 100.0).astype(np.float32))"),
    "b10_pool_chlorine_decay": ("replace", "cl = wp.zeros(N_POOL, dtype=float, requires_grad=True)"),
    "b11_server_rack_inlet": ("replace", "self.inlet = wp.zeros(N_RACK, dtype=float, requires_grad=True)"),
    "b12_hvac_duct_pressure": ("replace", "N_SWEEP = 250"),
    "b13_subway_platform_load": ("replace", "N_ITER = 200"),
    "b14_pendulum_clock_drift": ("replace", "RING = N_STEP + 1"),
    "b15_printer_nozzle_heat": ("replace", "wp.launch(melt_draw, dim=N_LAYER, inputs=[params, t_block, feed], outputs=[t_nozzle])"),
    "b16_laundry_line_drying": ("delete",),
    "b17_library_book_loans": ("delete",),
    "b18_golf_ball_carry": ("replace", "g = params.grad"),
    "b19_violin_string_tuning": ("delete",),
    "b20_tooth_enamel_remineral": ("replace", "out[i, w] = depth0[i] * wp.exp(-p[0] * weeks[w]) * (1.0 - p[1] * fluor[i])"),
    "b21_sushi_conveyor_plates": ("replace", "wp.atomic_add(belt, 0, portion)\nbefore = float(0.0)\nfor j in range(N_PLATE):\n    if j < i:\n        before += p[0] * size[j]"),
    "b22_heat_shield_ablation": ("replace", "opt.step([params.grad])\ntape.zero()"),
    "b23_lighthouse_beam_range": ("replace", "@wp.kernel"),
    "b24_gymnastics_vault_flight": ("replace", "pos = wp.vec3(pos[0] + p[1] * 0.4 * t[i] * vz, pos[1], pos[2])"),
}
