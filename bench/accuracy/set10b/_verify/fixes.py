"""The fix of every bug program, applied at its `# expect:` line.

Each entry: file (the program or the helper holding the marker), old (a
fragment the marked line must contain, as a guard), new (the replacement
line(s), indented like the marked line; None deletes the line).
"""

FIXES = {
    "b01_mlp_pingpong_layers": dict(
        file="b01_mlp_pingpong_layers.py",
        old="acts = [x, self.buf_a, self.buf_b, self.buf_a, self.out]",
        new="acts = [x, self.buf_a, self.buf_b, self.buf_c, self.out]",
    ),
}
FIXES["b02_rmsnorm_inplace_alias"] = dict(
    file="b02_rmsnorm_inplace_alias.py",
    old="h_norm = h  #",
    new="h_norm = wp.empty_like(h)  # separate output buffer (inherits requires_grad)",
)
FIXES["b03_multiview_shared_framebuffer"] = dict(
    file="b03_multiview_shared_framebuffer.py",
    old="img = self.framebuffer",
    new="img = wp.zeros((RES, RES), dtype=float, requires_grad=True)  # one image per view",
)
FIXES["b04_prefetch_batch_before_backward"] = dict(
    file="b04_prefetch_batch_before_backward.py",
    old="ld.load(it + 1)",
    new=None,
)
FIXES["b05_rigid_fit_numpy_view_centering"] = dict(
    file="b05_rigid_fit_numpy_view_centering.py",
    old="pts = self.src.numpy()",
    new="pts = self.src.numpy().copy()",
)
FIXES["b06_fourier_field_struct_params"] = dict(
    file="_field_buffers.py",
    old="self.features = wp.zeros((batch, 2 * self.n_feat), dtype=float)",
    new="self.features = wp.zeros((batch, 2 * self.n_feat), dtype=float, requires_grad=True)",
)
FIXES["b07_splat_opacity_zeros_like"] = dict(
    file="b07_splat_opacity_zeros_like.py",
    old="self.alpha = wp.zeros_like(self.radius_px)",
    new="self.alpha = wp.zeros_like(self.opacity_logit)  # inherits requires_grad=True",
)
FIXES["b08_rbf_surface_minibatch_sgd"] = dict(
    file="b08_rbf_surface_minibatch_sgd.py",
    old="self.loss.grad.zero_()",
    new="self.tape.zero()",
)
FIXES["b09_soft_histogram_matching"] = dict(
    file="b09_soft_histogram_matching.py",
    old="self.hist.grad.zero_()",
    new="self.hist.zero_()",
)
FIXES["b10_attention_logit_monitor"] = dict(
    file="b10_attention_logit_monitor.py",
    old="self.attention_entropy()",
    new="self.attention_entropy(recompute=False)",
)
FIXES["b11_siren_image_ones_seed"] = dict(
    file="b11_siren_image_ones_seed.py",
    old="tape.backward(grads={self.err: wp.ones(N_PIX, dtype=float)})",
    new="tape.backward(grads={self.err: wp.full(N_PIX, 1.0 / N_PIX, dtype=float)})",
)
FIXES["b12_duffing_checkpoint_seed"] = dict(
    file="b12_duffing_checkpoint_seed.py",
    old="tape1.backward(grads={x_mid: x_cp.grad})",
    new="tape1.backward(grads={x_mid: x_cp.grad, v_mid: v_cp.grad})",
)
FIXES["b13_capsule_sdf_numpy_adam"] = dict(
    file="b13_capsule_sdf_numpy_adam.py",
    old="grad = self.theta.grad.numpy()",
    new="grad = self.theta.grad.numpy().copy()",
)
FIXES["b14_icp_compacted_residuals"] = dict(
    file="b14_icp_compacted_residuals.py",
    old="slot = wp.atomic_add(cursor, 0, 1)",
    new="slot = i",
)
FIXES["b15_centered_features_numpy_mean"] = dict(
    file="b15_centered_features_numpy_mean.py",
    old="mu = wp.array(h.numpy().mean(axis=0), dtype=float, requires_grad=True)",
    new="mu = self.feature_mean(h)",
)
FIXES["b16_sir_log_rates_untaped"] = dict(
    file="b16_sir_log_rates_untaped.py",
    old="record_tape=False)",
    new="wp.launch(rates_from_log, dim=REGIONS, inputs=[log_beta, log_gamma], outputs=[self.beta, self.gamma])",
)
FIXES["b17_attention_pooling_array_sum"] = dict(
    file="b17_attention_pooling_array_sum.py",
    old="wp.utils.array_sum(e, out=denom)",
    new="wp.launch(reduce_sum, dim=M, inputs=[e], outputs=[denom])",
)
FIXES["b18_layernorm_affine_inplace"] = dict(
    file="b18_layernorm_affine_inplace.py",
    old="y[n, j] *= gamma[j]",
    new="y[n, j] = xhat[n, j] * gamma[j]",
)
FIXES["b19_ricker_stock_harvest"] = dict(
    file="b19_ricker_stock_harvest.py",
    old="n_out[s] *= 1.0 - harvest[s]",
    new="n_out[s] = n[s] * growth * (1.0 - harvest[s])",
)
FIXES["b20_camera_pose_reprojection"] = dict(
    file="b20_camera_pose_reprojection.py",
    old="pc[2] = wp.max(pc[2], NEAR)",
    new="pc = wp.vec3(pc[0], pc[1], wp.max(pc[2], NEAR))",
)
FIXES["b21_lotka_volterra_kernel_loop"] = dict(
    file="b21_lotka_volterra_kernel_loop.py",
    old="for s in range(n_steps):",
    new="for s in range(N_STEPS):",
)
FIXES["b22_kernel_regression_field"] = dict(
    file="_kernel_field.py",
    old="for k in range(n_centers):",
    new="for k in range(NUM_CENTERS):",
)
FIXES["b23_mmd_generator_laplace_kernel"] = dict(
    file="b23_mmd_generator_laplace_kernel.py",
    old="r = wp.sqrt(wp.dot(d, d))",
    new="r = wp.length(d)",
)
FIXES["b24_volume_density_softplus"] = dict(
    file="b24_volume_density_softplus.py",
    old="return wp.where(z > 20.0, z, wp.log(1.0 + wp.exp(z)))",
    new="return wp.where(z > 20.0, z, wp.log(1.0 + wp.exp(wp.min(z, 20.0))))",
)
FIXES["b25_robust_curve_fit_custom_grad"] = dict(
    file="_robust_loss.py",
    old="wp.adjoint[r] = adj_ret * r / wp.sqrt(1.0 + u * u)",
    new="wp.adjoint[r] += adj_ret * r / wp.sqrt(1.0 + u * u)",
)
FIXES["b26_polygon_deform_edge_length"] = dict(
    file="b26_polygon_deform_edge_length.py",
    old="wp.adjoint[d] += d / l",
    new="wp.adjoint[d] += adj_ret * d / l",
)
FIXES["b27_pose_through_frozen_field"] = dict(
    file="_posenc.py",
    old="@wp.kernel(enable_backward=False)",
    new="@wp.kernel",
)
