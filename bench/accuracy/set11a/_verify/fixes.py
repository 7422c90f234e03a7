"""The one-line fix of every bug program, applied at its ``# expect:`` line.

("replace", text): the marked line becomes ``text`` (its indentation is kept);
("delete",): the marked line is removed.
"""
FIXES = {
    "b01_perona_malik_denoise": ("replace", "dst = wp.zeros_like(self.noisy)"),
    "b02_twist_taper_fit": ("replace", "out = wp.empty_like(pts)"),
    "b03_sphere_trace_depth": ("replace", "t = t_next"),
    "b04_splat_fit_preview": ("replace", "frame = frame / frame.max()"),
    "b05_torus_sdf_fit": ("delete",),
    "b06_gaussian_splat_project": ("replace", "self.splats = wp.zeros(K, dtype=wp.vec3, requires_grad=True)"),
    "b07_uv_symmetric_dirichlet": ("replace", "self.jac = wp.zeros(self.n_tri, dtype=wp.mat22, requires_grad=True)"),
    "b08_pnp_pose_adam": ("replace", "self.pose.grad.zero_()"),
    "b09_density_splat_register": ("replace", "self.density.zero_()"),
    "b10_soft_raster_silhouette": ("delete",),
    "b11_vignetting_calibration": ("replace", "tape.backward(grads={err: wp.full_like(err, 1.0 / err.size)})"),
    "b12_heightfield_relight_checkpoint": ("replace", "tape_geo.backward(grads={pos: pos_cp.grad, nrm: nrm_cp.grad})"),
    "b13_quad_texture_sgd": ("replace", "g = tex.grad.numpy().copy()"),
    "b14_point_to_plane_icp": ("replace", "grad = self.xf.grad"),
    "b15_frustum_culled_splats": ("replace", "slot = slot_of[k]"),
    "b16_taubin_curve_fairing": ("replace", "state = b"),
    "b17_checkerboard_calibration": ("replace", "wp.launch(build_view, dim=1, inputs=[params], outputs=[view])"),
    "b18_soft_shadow_occluder": ("replace", "img[i, j] = c * vis"),
    "b19_sh_lighting_autoexposure": ("replace", "out[k] = raw[k] / (total[0] / float(RES * RES))"),
    "b20_point_depth_projection": ("replace", "pc = wp.vec3(pc[0], pc[1], wp.max(pc[2], NEAR))"),
    "b21_sheared_patch_strain": ("replace", "F = wp.mat22(F[0, 0], F[0, 1], 0.5 * (F[1, 0] + F[0, 1]), F[1, 1])"),
    "b22_capsule_sphere_tracing": ("replace", "for s in range(MARCH_STEPS):"),
    "b23_emission_absorption_volume": ("replace", "for s in range(N_SAMPLES):"),
    "b24_sphere_relight_srgb": ("replace", "return wp.where(c > 0.0, wp.pow(wp.max(c, 1.0e-6), 1.0 / GAMMA), 0.0)"),
    "b25_scan_bend_edge_regularizer": ("replace", "l = wp.length(d)"),
    "b26_antialiased_ellipse_fit": ("replace", "wp.adjoint[x] += 6.0 * wp.clamp(x, 0.0, 1.0) * (1.0 - wp.clamp(x, 0.0, 1.0)) * adj_ret"),
    "b27_point_light_estimation": ("replace", "wp.adjoint[v] += (adj_ret - u * wp.dot(u, adj_ret)) * inv"),
    "b28_blurred_image_alignment": ("delete",),
}
