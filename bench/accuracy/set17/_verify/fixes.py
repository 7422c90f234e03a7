"""The one-line fix of every bug program, applied at its ``# expect:`` line.

("replace", text): the marked line becomes ``text`` (its indentation is kept);
("delete",): the marked line is removed.
"""
FIXES = {
    "b01_karst_spring_recession": ("replace", "wp.adjoint[h] += adj_ret * km"),
    "b02_lens_coating_thickness": ("replace", "wp.adjoint[d] += -adj_ret * s * FOUR_PI * n / lam"),
    "b03_gripper_grasp_saturation": ("replace", "wp.adjoint[s0] += adj_ret * k * wp.log(s / s0)"),
    "b04_seismic_source_spectrum": ("replace", "sq.grad.assign((1.0 / (N * (C_ROB**2 + sq_h))).astype(np.float32))"),
    "b05_consecutive_reaction_arrhenius": ("replace", "tape.backward(grads={cb: wp.array((lr / cb_h).astype(np.float32), dtype=float)})"),
    "b06_ois_curve_liquid_quotes": ("replace", "z.grad.assign((2.0e4 * err_bp * LIQUID / N_LIQ).astype(np.float32))"),
    "b07_dopant_drive_in_diffusion": ("replace", "bufs = [wp.zeros(NZ, dtype=float, requires_grad=requires_grad) for _ in range(N_STEPS + 1)]"),
    "b08_ocean_mixed_layer_density": ("replace", "rho = wp.zeros(NZ, dtype=float, requires_grad=self.rg)"),
    "b09_fm_synth_drive_patch": ("replace", "y = wp.empty_like(x)"),
    "b10_lynx_hare_sgd": ("replace", "tape.zero()"),
    "b11_irrigation_bucket_capture": ("replace", "tape.zero()"),
    "b12_golf_drive_carry": ("replace", "coef_log = coef"),
    "b13_signal_corridor_splits": ("replace", "self.green = wp.zeros(N_INT, dtype=float, requires_grad=True)"),
    "b14_plate_exchanger_ntu": ("replace", "eps_g = (1.0 - wp.exp(-x)) / wp.max(1.0 - cr[i] * wp.exp(-x), 1.0e-6)"),
    "b15_stand_height_growth": ("replace", "for y in range(MAX_AGE):"),
    "b16_steel_quench_cooling": ("replace", "t_new[b] += -DT * p[0] * bio[b] * wp.pow((t_prev[b] - T_OIL) / 100.0, p[1])"),
    "b17_office_zone_rc_adam": ("replace", "tape.zero()"),
    "b18_photon_depth_dose": ("replace", "dose_qa = wp.clone(dose)"),
    "b19_gnss_euler_pole": ("replace", "wp.launch(rotate_enu, dim=d_ecef.shape, inputs=[d_ecef, rot_w], outputs=[d_enu])"),
    "b20_demersal_stock_surplus": ("replace", "return [wp.zeros(n_stock, dtype=float, requires_grad=True) for _ in range(n_year + 1)]"),
    "b21_gravel_bed_bedload": ("replace", "theta = wp.zeros(N_XS, dtype=float, requires_grad=requires_grad)"),
    "b22_vineyard_water_stress": ("replace", "ks = wp.pow(wp.max(x, 1.0e-12), p[0])"),
    "b23_aquifer_pumping_test": ("replace", "s_obs = 0.012 / (12.566370614359172 * tr) * wp.log(2.25 * tr * t / (wp.max(r * r, 0.15 * 0.15) * st))"),
    "b24_chlorine_network_decay": ("replace", "for k in range(MAX_SEG):"),
}
