"""The one-line fix of every bug program, applied at its ``# expect:`` line.

("replace", text): the marked line becomes ``text`` (its indentation is kept);
("delete",): the marked line is removed.
"""
FIXES = {
    "b01_cloth_wind_pingpong": ("replace", "x_next = wp.empty_like(x)"),
    "b02_fem_beam_drag_alias": ("replace", "v_damped = wp.empty_like(v_pred)"),
    "b03_rope_swing": ("replace", "forces = wp.zeros_like(self.forces)"),
    "b04_heat_plate_reset": ("delete",),
    "b05_tumbling_box_viewer": ("replace", "self.frames.append(recentre(X.numpy().copy()))"),
    "b06_fem_beam_strain_buffer": ("replace", "self.F = [wp.zeros(mesh.n_tri, dtype=wp.mat22, requires_grad=True) for _ in range(STEPS)]"),
    "b07_projectile_drag_fit": ("replace", "self.f_aero = [wp.zeros(n, dtype=wp.vec3, requires_grad=True) for _ in range(steps)]"),
    "b08_arm_reach_adam": ("replace", "self.tape.zero()"),
    "b09_pic_blob_throw": ("replace", "self.grid_mv[s].zero_()"),
    "b10_ball_drop_contact_log": ("delete",),
    "b11_smoke_emitters_mean": ("replace", "tape.backward(grads={err: wp.full_like(err, 1.0 / err.size)})"),
    "b12_elastic_pendulum_checkpoint": ("replace", "tape1.backward(grads={x_mid: x_cp.grad, v_mid: v_cp.grad})"),
    "b13_drone_waypoint_adam": ("replace", "grad = self.controls.grad"),
    "b14_satellite_slew_numpy": ("replace", "g = torques.grad.numpy().copy()"),
    "b15_granular_sphere_contacts": ("replace", "slot = i"),
    "b16_throwing_arm_release": ("replace", "ball = wp.clone(ball_release)"),
    "b17_cloth_log_stiffness": ("replace", "wp.launch(stiffness_from_log, dim=cloth.n_springs, inputs=[log_k, family], outputs=[ke])"),
    "b18_arm_joint_damping_id": ("replace", "qd_out[j] = (qd[j] + dt * qdd) * damping[j]"),
    "b19_fin_cooling_zones": ("replace", "T_out[i] = (T[i] + ALPHA * (left - 2.0 * T[i] + right)) / (1.0 + dt * h[i * ZONES // CELLS])"),
    "b20_kite_aero_lift": ("replace", "f = f + wp.vec3(0.0, cl * wp.dot(rel, rel), 0.0)"),
    "b21_curling_stone_friction": ("replace", "fc = fc - wp.vec3(MU * fn * v[0] / slip, 0.0, 0.0)"),
    "b22_snake_arm_ik": ("replace", "for k in range(NUM_LINKS):"),
    "b23_spray_droplets_substeps": ("replace", "for s in range(N_SUB):"),
    "b24_sph_droplet_spread": ("replace", "r = wp.length(d)"),
    "b25_box_drop_hertz": ("replace", "fn = wp.where(pen > 0.0, K_HERTZ * wp.pow(wp.max(pen, 0.0), 1.5) - C_CONTACT * pen * vp[1], 0.0)"),
    "b26_spring_robot_actuation": ("replace", "wp.adjoint[v] += adj_ret * v / l"),
    "b27_cartpole_gain_tuning": ("delete",),
}
