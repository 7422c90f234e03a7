"""The one-line fix of every bug program, applied at its ``# expect:`` line.

("replace", text): the marked line becomes ``text`` (its indentation is kept);
("delete",): the marked line is removed.
"""
FIXES = {
    "b01_lj_cluster_copy_back": ("replace", "self.x = x_new"),
    "b02_morse_chain_relax_pingpong": ("replace", "x_cur, x_nxt = x_nxt, wp.empty_like(x_nxt)"),
    "b03_lj_gas_inplace_leapfrog": ("replace", "x_out, v_out = wp.empty_like(x), wp.empty_like(v)"),
    "b04_lj_energy_fit_centred_view": ("replace", "ref_view = ref_view - ref_view.mean()"),
    "b05_langevin_msd_wrap_frame": ("replace", "frame = wp.empty_like(x)"),
    "b06_butane_bonded_fit_angle_buffer": ("replace", "ea = wp.zeros((nc, 2), dtype=float, requires_grad=True)"),
    "b07_kremer_grest_force_buffer": ("replace", "f = wp.zeros(self.n, dtype=wp.vec3, requires_grad=True)"),
    "b08_morse_force_matching_adam": ("replace", "tape.zero()"),
    "b09_cg_bond_force_matching_sgd": ("replace", "theta.grad.zero_()"),
    "b10_lj_pair_energy_retain_grad": ("delete",),
    "b11_buckingham_force_residual_seed": ("replace", "tape.backward(grads={res: wp.full(res.shape, 1.0 / res.size, dtype=float)})"),
    "b12_lj_checkpointed_verlet_seed": ("replace", "tape1.backward(grads={x_mid: x_cp.grad, v_mid: v_cp.grad})"),
    "b13_lj_minimiser_grad_after_zero": ("delete",),
    "b14_lj_pressure_pair_compaction": ("replace", "slot = i * frac.shape[0] + j"),
    "b15_water_dipole_site_table": ("replace", "slot = site[i]"),
    "b16_lj_berendsen_untaped_rescale": ("replace", "wp.launch(berendsen_rescale, dim=N, inputs=[v_new, T, thermo, DT], outputs=[v_th])"),
    "b17_polymer_equilibration_two_tapes": ("replace", "tape_prod = tape_eq"),
    "b18_butane_torsion_scaled_14": ("replace", "e14[c] = 4.0 * EPS_CH2 * (s6 * s6 - s6) * prm[1]"),
    "b19_fep_reweighting_normalise": ("replace", "p[i] = w[i] / z[0]"),
    "b20_lj_melt_componentwise_image": ("replace", "d[k] -= box * wp.round(d[k] / box)"),
    "b21_triclinic_uniaxial_cell": ("replace", "H[0, 0] += strain * H[0, 0]"),
    "b22_flexible_dimers_respa": ("replace", "for s in range(4):"),
    "b23_finnis_sinclair_cluster": ("replace", "for j in range(13):"),
    "b24_ionic_cluster_masked_self_term": ("replace", "r = wp.length(d) + wp.where(i == j, 1.0, 0.0)"),
    "b25_polymer_distance_map_fit": ("replace", "r = wp.length(d)"),
    "b26_fcc_argon_custom_lj_adjoint": ("replace", "wp.adjoint[r2] += adj_ret * 4.0 * eps * (-6.0 * s12 + 3.0 * s6) / r2"),
    "b27_lj_tail_correction_record_func": ("replace", "d_sigma = c * eps * (4.0 * sigma ** 11 / RC ** 9 - 6.0 * sigma ** 5 / RC ** 3)"),
    "b28_morse_cluster_cohesive_fit": ("replace", "wp.set_module_options({\"enable_backward\": True})"),
}
