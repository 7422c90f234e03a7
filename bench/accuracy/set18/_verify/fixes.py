"""The one-line fix of every bug program, applied at its ``# expect:`` line.

("replace", text): the marked line becomes ``text`` (its indentation is kept);
("delete",): the marked line is removed.
"""
FIXES = {
    "b01_glacier_basal_sliding": ("replace", "wp.adjoint[delta] += -adj_ret * c * t3 * damp * dt / (delta * delta)"),
    "b02_battery_exchange_current": ("replace", "wp.adjoint[alpha] += adj_ret * i0 * F_RT * eta * (ea - ec)"),
    "b03_pk_biexponential_lognormal": ("replace", "tape.backward(grads={conc: wp.array((seed / c).astype(np.float32), dtype=float)})"),
    "b04_wind_turbine_power_curve": ("replace", "power.grad.assign((2.0 * AVAIL * r / np.sum(AVAIL)).astype(np.float32))"),
}
FIXES.update({
    "b05_grid_line_reactance": ("replace", "flow = wp.zeros(len(X0), dtype=float, requires_grad=True)"),
    "b06_burner_thermal_nox": ("replace", "self.temp = wp.zeros(self.n, dtype=float, requires_grad=True)"),
    "b07_room_acoustic_radiosity": ("replace", "for it in range(400):"),
    "b08_comet_kepler_orbit": ("replace", "for k in range(250):"),
})
FIXES.update({
    "b09_cloth_strip_drape": ("replace", "self.n_buf = N_STEPS + 1"),
    "b10_circadian_light_phase": ("replace", "self.n_buf = N_STEPS + 1"),
    "b11_tire_magic_formula": ("replace", "wp.launch(slip_angle, dim=N_OBS, inputs=[vx_d, vy_d, yaw_d, ARM[k], STEER[k]], outputs=[alpha := wp.zeros(N_OBS, dtype=float, requires_grad=True)])"),
    "b12_xrd_lattice_refinement": ("replace", "d = d_hot"),
})
FIXES.update({
    "b13_pd_emax_sgd": ("replace", "tape.zero()"),
    "b14_pv_single_diode_adam": ("replace", "self.tape.zero()"),
})
FIXES.update({
    "b15_snowpack_degree_day": ("replace", "swe_cur = swe"),
    "b16_bridge_cable_sag": ("replace", "wp.copy(out, sag)"),
})
FIXES.update({
    "b17_yeast_monod_fermenter": ("replace", "self.mu = [wp.zeros(N_TANK, dtype=float, requires_grad=True) for _ in range(N_STEPS)]"),
    "b18_led_lumen_depreciation": ("replace", "tj = wp.zeros(n, dtype=float, requires_grad=True)"),
})
FIXES.update({
    "b19_snow_slab_creep": ("replace", "rate = wp.where(excess > 0.0, p[0] * wp.pow(wp.max(excess, 1.0e-12), p[1]), 0.0)"),
    "b20_loudspeaker_array_spl": ("replace", "spl = wp.where(pw > 0.0, 10.0 * wp.log10(wp.max(pw, 1.0e-30)), FLOOR_DB)"),
})
FIXES.update({
    "b21_permafrost_active_layer": ("replace", "for w in range(MAX_WEEKS):"),
    "b22_dialysis_urea_kinetics": ("replace", "c_post[i] = (c_pre[i] + gen) * wp.exp(-k * t_sess[i] / v[i])"),
    "b23_greenhouse_air_temperature": ("replace", "wp.launch(solar_gain, dim=N_HOUSE, inputs=[self.irr, self.area, self.params], outputs=[self.q_sun])"),
    "b24_activated_sludge_oxygen": ("delete",),
})
