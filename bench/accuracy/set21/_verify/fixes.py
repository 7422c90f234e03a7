"""The one-line fix of every bug program, applied at its ``# expect:`` line.

("replace", text): the marked line becomes ``text`` (its indentation is kept;
a ``\\n`` in ``text`` starts a further line at the same indentation);
("delete",): the marked line is removed.
"""
FIXES = {
    "b01_greenhouse_heating": ("replace", "t_out = t_night"),
    "b02_battery_pack_thermal": ("replace", "self.cur = wp.zeros(N_CELL, dtype=float, requires_grad=True)\nwp.launch(regen_current, dim=N_CELL, inputs=[self.p, self.speed], outputs=[self.cur])"),
    "b03_solar_farm_soiling": ("replace", "dust = wp.empty_like(dust)\nwp.launch(rain_wash, dim=(N_ROW, N_DAY), inputs=[params, base, wp.array(RAIN, dtype=float)], outputs=[dust])"),
    "b04_tyre_slip_curve": ("replace", "wp.adjoint[mu] += adj_ret"),
}
FIXES.update({
    "b05_glacier_basal_sliding": ("replace", "wp.adjoint[ty] += adj_ret * (3.0 * c * ty * ty - 4.0)"),
    "b06_soil_water_retention": ("replace", "wp.adjoint[lam] += adj_ret * amp * se * wp.log(hb / h)"),
})
FIXES.update({
    "b07_retail_demand_forecast": ("replace", "seed = wp.array((2.0 * resid / N_WEEK).astype(np.float32), dtype=float)"),
    "b08_traffic_speed_flow": ("replace", "v.grad.assign((2.0 * WEIGHT * r / 10.0).astype(np.float32))"),
    "b09_glass_tempering": ("replace", "tape.backward(grads={stress: wp.array((2.0 * r / s).astype(np.float32), dtype=float)})"),
})
FIXES.update({
    "b10_wildfire_spread_rate": ("replace", "ros = wp.zeros((NX, NY), dtype=float, requires_grad=True)"),
    "b11_water_main_pressure": ("replace", "self.head = wp.zeros(N_NODE, dtype=float, requires_grad=True)"),
})
FIXES.update({
    "b12_market_price_equilibrium": ("replace", "N_SWEEP = 250"),
})
FIXES.update({
    "b13_furnace_radiosity": ("replace", "N_JACOBI = 200"),
})
FIXES.update({
    "b14_crowd_evacuation_corridor": ("replace", "RING = N_STEP + 1"),
})
FIXES.update({
    "b15_permafrost_active_layer": ("replace", "self.n_ring = N_DAY + 1"),
})
FIXES.update({
    "b16_cycling_aero_drag": ("replace", "wp.launch(posture_cda, dim=N_LAP, inputs=[self.params, wp.array(TORSO, dtype=float)], outputs=[self.cda])"),
})
FIXES.update({
    "b17_suspension_bridge_cable": ("delete",),
})
FIXES.update({
    "b18_trampoline_bed_bounce": ("delete",),
})
FIXES.update({
    "b19_orchard_irrigation": ("replace", "g = self.params.grad"),
})
FIXES.update({
    "b22_kite_tether_tension": ("replace", "opt.step([params.grad])\ntape.zero()"),
})
FIXES.update({
    "b20_radionuclide_decay_chain": ("replace", "act[i] = n0[i] * lam1 * wp.exp(-lam1 * t) * (1.0 + ingrowth)"),
})
FIXES.update({
    "b21_parking_garage_search": ("replace", "wp.atomic_add(occupied, 0, stay)\nbefore = float(0.0)\nfor j in range(N_CAR):\n    if j < i:\n        before += stay_probability(p[0], p[1], arrive[j])"),
})
FIXES.update({
    "b23_ice_hockey_puck_glide": ("replace", "@wp.kernel"),
})
FIXES.update({
    "b24_robot_arm_calibration": ("replace", "t1 = wp.mat33(t1[0, 0], t1[0, 1], t1[0, 2] * GROWTH, t1[1, 0], t1[1, 1], t1[1, 2], 0.0, 0.0, 1.0)"),
})
