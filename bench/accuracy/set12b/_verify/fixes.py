"""The one-line fix of every bug program, applied at its ``# expect:`` line.

("replace", text): the marked line becomes ``text`` (its indentation is kept);
("delete",): the marked line is removed.
"""
FIXES = {
    "b01_chain_drape_pingpong": ("replace", "x_a, v_a, (x_b, v_b) = x_b, v_b, chain.new_state()"),
    "b02_plate_conductivity_copy": ("replace", "T = T_new"),
    "b03_membrane_creep_view": ("replace", "Dm_inv = mesh.Dm_inv.numpy().copy()"),
    "b04_sph_block_walls": ("delete",),
    "b05_membrane_sag_sim": ("replace", "f = wp.zeros(m.n, dtype=wp.vec2, requires_grad=True)"),
    "b06_channel_gauges_buffers": ("replace", "self.hu = [wp.zeros(self.n, dtype=float, requires_grad=True) for _ in range(self.steps + 1)]"),
    "b07_chain_fit_adam": ("replace", "params.grad.zero_()"),
    "b08_pic_shear_transfer": ("replace", "for a in (self.grid_m, self.grid_mv, self.grid_v):"),
    "b09_membrane_stress_probe": ("replace", "P = self.P"),
    "b10_stream_dye_walls": ("replace", "u = wp.zeros((N, N), dtype=wp.vec2, requires_grad=True)"),
    "b11_smoke_projection_clip": ("replace", "q = q_new"),
    "b12_membrane_young_poisson": ("replace", "wp.launch(lame_from_young, dim=1, inputs=[ym], outputs=[mat])"),
    "b13_channel_mean_misfit": ("replace", "tape.backward(grads={err: wp.full_like(err, 1.0 / err.shape[0])})"),
    "b14_chain_checkpointed": ("replace", "tape1.backward(grads={x_mid: x_cp.grad, v_mid: v_cp.grad})"),
    "b15_rod_conductivity_descent": ("replace", "grad = wp.clone(kappa.grad)"),
    "b16_membrane_lame_sgd": ("replace", "grads = [mat.grad]"),
    "b17_soft_pad_contacts": ("replace", "slot = i"),
    "b18_plate_newton_cooling": ("replace", "T_out[i, j] = (T_new - T_amb) * wp.exp(-params[1] * DT)"),
    "b19_pic_density_normalize": ("replace", "grid_v[i, j] = mv / (grid_m[i, j] + 0.05)"),
    "b20_membrane_svk_energy": ("replace", "eps = wp.cw_mul(eps, wp.vec3(1.0, 1.0, 2.0))"),
    "b21_chain_vertical_drag": ("replace", "v1 = v1 - dt * params[2] * wp.vec3(0.0, v1[1] * wp.abs(v1[1]), 0.0)"),
    "b22_viscoplastic_ramp": ("replace", "for k in range(N_SUB):"),
    "b23_vortex_tracers": ("replace", "for k in range(N_SUB):"),
    "b24_sph_lattice_spacing": ("replace", "r = wp.length(d)"),
    "b25_porous_medium_exponent": ("replace", "k = wp.pow(wp.max(u[i], 1.0e-8), m)"),
    "b26_ramp_friction_fit": ("replace", "wp.adjoint[x] += adj_ret * x / smooth_abs(x)"),
    "b27_chain_safe_length": ("replace", "wp.adjoint[d] += adj_ret * d / safe_length(d)"),
    "b28_chain_floor_contact": ("replace", "@wp.kernel"),
    "b29_block_heater_power": ("delete",),
}
