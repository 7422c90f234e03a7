"""The one-line fix of every bug program, applied at its ``# expect:`` line.

("replace", text): the marked line becomes ``text`` (its indentation is kept);
("delete",): the marked line is removed.
"""
FIXES = {
    "b01_heat_conductivity_fit": ("replace", "a, b = b, wp.empty_like(b)"),
    "b02_poisson_diffusivity_jacobi": ("replace", "u_new = wp.empty_like(u)"),
    "b03_sine_gordon_wave_speed": ("replace", "state = nxt"),
    "b04_fisher_kpp_rows": ("replace", "dst = src + 1"),
    "b05_rbf_regressor_lengthscale": ("replace", "centred = centred - centred.mean(axis=0)"),
    "b06_pendulum_policy_episodes": ("delete",),
    "b07_coordinate_mlp_fit": ("replace", "h = wp.zeros((x.shape[0], HID), dtype=float, requires_grad=True)"),
    "b08_pinn_oscillator_residual": ("replace", "self.resid = wp.zeros(self.n, dtype=float, requires_grad=True)"),
    "b09_sinkhorn_adam_points": ("replace", "for arr in params:"),
    "b10_kde_particle_fit": ("replace", "self.grid = wp.zeros_like(self.grid)"),
    "b11_softmax_regression_toy": ("replace", "confidence = probs.numpy().max(axis=1).mean()"),
    "b12_plate_source_inversion": ("replace", "tape.backward(grads={err: wp.full_like(err, 1.0 / err.size)})"),
    "b13_duffing_checkpointed": ("replace", "tape1.backward(grads={x_mid: x_cp.grad, v_mid: v_cp.grad})"),
    "b14_lotka_volterra_momentum": ("replace", "g = th.grad.numpy()"),
    "b15_rbf_network_sgd": ("replace", "g = net.w.grad.numpy().copy()"),
    "b16_svm_active_set": ("replace", "slot = i"),
    "b17_tracer_transport_fit": ("replace", "c = wp.clone(c)"),
    "b18_sir_log_rates": ("replace", "wp.launch(rates_from_log, dim=2, inputs=[log_rates], outputs=[rates])"),
    "b19_point_mass_reach_policy": ("delete",),
    "b20_pharmacokinetics_elimination": ("replace", "plasma_out[i] = (plasma[i] + absorbed) * wp.exp(-rates[1] * DT)"),
    "b21_neural_field_hard_ic": ("replace", "y = wp.cw_mul(y, wp.vec3(t, 1.0, 1.0))"),
    "b22_kalman_noise_mle": ("replace", "P = P + wp.mat22(0.0, 0.0, 0.0, q)"),
    "b23_michaelis_menten_kinetics": ("replace", "for k in range(N_STEPS):"),
    "b24_polynomial_surrogate": ("replace", "for k in range(DEG):"),
    "b25_mmd_matern_generator": ("replace", "r = wp.length(d)"),
    "b26_ot_forbidden_routes": ("replace", "h = wp.where(p > 0.0, p * wp.log(wp.max(p, 1.0e-30)), 0.0)"),
    "b27_poisson_glm_softplus": ("replace", "wp.adjoint[x] += adj_ret * sig"),
    "b28_surrogate_mlp_gelu": ("replace", "@wp.kernel"),
    "b29_implicit_heat_record_func": ("replace", "wp.launch(lap_pairing, dim=N, inputs=[lam, u_new, coef], outputs=[prm.grad])"),
}
