"""The one-line fix of every bug program, applied at its ``# expect:`` line.

("replace", text): the marked line becomes ``text`` (its indentation is kept;
a text with newlines replaces the line by several lines, each indented alike);
("delete",): the marked line is removed.
"""
FIXES = {
    "b01_tendon_capstan_friction": ("replace", "wp.adjoint[mu] += adj_ret * t_in * theta * g"),
    "b02_ice_stream_basal_sliding": ("replace", "wp.adjoint[m] += adj_ret * tau * wp.log(u)"),
    "b03_note_book_vega": ("replace", "wp.adjoint[x] += adj_ret * e / (1.0 + e)"),
    "b04_colloid_cluster_yukawa_fit": ("replace", "wp.adjoint[kappa] += -adj_ret * r * v * sw"),
    "b05_imu_accel_calibration": ("replace", "tape.backward(grads={err: wp.array((WEIGHT / WEIGHT.sum()).astype(np.float32), dtype=float)})"),
    "b06_maize_yield_regression_sgd": ("replace", "self.err.grad.fill_(1.0 / N_COUNTY)"),
    "b07_risk_parity_adam": ("replace", "tape.backward(grads={self.dev: wp.full(N_ASSET, 1.0 / N_ASSET, dtype=float)})"),
    "b08_heat_exchanger_fouling": ("replace", "err.grad.assign(wp.array((FLOW / FLOW.sum()).astype(np.float32), dtype=float))"),
    "b09_footbridge_truss_two_loads": ("replace", "delta = wp.zeros(N_MEM, dtype=float, requires_grad=True)"),
    "b10_pyrolysis_arrhenius_two_temps": ("replace", "self.k = wp.zeros(len(LOG_A), dtype=float, requires_grad=True)"),
    "b11_material_two_lights": ("replace", "self.radiance = wp.zeros(RES * RES, dtype=float, requires_grad=True)"),
}
FIXES.update({
    "b12_zonal_ebm_forcing_fit": ("replace", "for _ in range(400):"),
    "b13_cable_net_roof_form_finding": ("replace", "for _ in range(600):"),
    "b14_market_clearing_elasticity": ("replace", "for _ in range(400):"),
})
FIXES.update({
    "b15_quadruped_swing_gains": ("replace", "s_out = LegState(N_LEGS)\nwp.launch(swing_step, dim=N_LEGS, inputs=[s_in.q, s_in.qd, gains, self.dt], outputs=[s_out.q, s_out.qd])"),
})
FIXES.update({
    "b16_tsunami_source_inversion": ("replace", "nxt = Fields()\nwp.launch(lax_friedrichs, dim=NX, inputs=[cur.h, cur.q], outputs=[nxt.h, nxt.q])"),
})
FIXES.update({
    "b17_cloth_stiffness_from_video": ("replace", "dst = ClothState()\nwp.launch(cloth_step, dim=N_PART, inputs=[src.x, src.v, prm], outputs=[dst.x, dst.v])"),
})
FIXES.update({
    "b18_thermal_chamber_pid_tuning": ("replace", "wp.launch(pid_law, dim=N_CH, inputs=[self.temp, self.integ, self.gains, self.setpoint, t], outputs=[self.power])"),
})
FIXES.update({
    "b19_wood_texture_from_photo": ("replace", "wp.launch(box_blur, dim=(RES, RES), inputs=[self.tex], outputs=[self.blurred])"),
})
FIXES.update({
    "b20_aquifer_recharge_calibration": ("replace", "wp.launch(boussinesq_day, dim=NX, inputs=[self.h[k], self.prm, self.pump], outputs=[self.h[k + 1]])"),
})
FIXES.update({
    "b21_arm_payload_holding_pose": ("replace", "next_masses = next_masses.copy()\nnext_masses[3] = NEXT_PAYLOAD"),
})
FIXES.update({
    "b22_column_lapse_rate_co2": ("replace", "wp.launch(nudge_humidity, dim=(N_COL, N_LEV), inputs=[self.q, self.q_ref, 0.3], outputs=[wp.empty_like(self.q)])"),
})
FIXES.update({
    "b23_nelson_siegel_curve_stress": ("replace", "quotes = wp.array(QUOTES * SHOCK, dtype=float)"),
})
FIXES.update({
    "b24_quadrotor_altitude_capture": ("replace", "self.gains.grad.zero_()\nself.tape.backward(self.loss)"),
})
FIXES.update({
    "b25_heat_sink_fin_capture": ("replace", "self.design.grad.zero_()"),
})
FIXES.update({
    "b26_footbridge_tmd_capture": ("replace", "self.states = [wp.zeros(N_SCEN, dtype=wp.vec4, requires_grad=True) for _ in range(N_STEPS + 1)]"),
})
FIXES.update({
    "b27_irrigation_schedule_adam": ("replace", "self.tape.reset()"),
})
FIXES.update({
    "b28_battery_cell_thermal_sgd": ("replace", "self.prm.grad.zero_()"),
})
FIXES.update({
    "b29_permafrost_thaw_conductivity": ("replace", "u, u_new = u_new, wp.empty_like(u_new)"),
})
FIXES.update({
    "b30_arm_skinning_pose_fit": ("replace", "self.skinned = wp.zeros(N_V, dtype=wp.vec3, requires_grad=True)"),
})
