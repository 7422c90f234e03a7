"""The one-line fix of every bug program, applied at its ``# expect:`` line.

("replace", text): the marked line becomes ``text`` (its indentation is kept);
("delete",): the marked line is removed.
"""
FIXES = {
    "b01_cartpole_gain_tuning": ("replace", "a, b = b, wp.empty_like(b)"),
    "b02_quad_takeoff_logging": ("replace", "P = P - P[0]"),
    "b03_ball_throw_contact": ("replace", "q = q_next"),
    "b04_car_lane_change_policy": ("delete",),
    "b05_arm_reach_batch": ("replace", "self.pts = wp.zeros((B, 3), dtype=wp.vec2, requires_grad=True)"),
    "b06_point_mass_policy": ("replace", "a = wp.empty(x.shape[0], dtype=wp.vec2, requires_grad=True)"),
    "b07_car_mpc_adam": ("replace", "u.grad.zero_()"),
    "b08_arm_ik_rms": ("replace", "self.err.zero_()"),
    "b09_pd_joint_tuning": ("replace", "tau = wp.zeros(N, dtype=wp.vec2, requires_grad=True)"),
    "b10_waypoint_tracking_mean": ("replace", "tape.backward(grads={err: wp.full(M, 1.0 / M, dtype=float)})"),
    "b11_quad_checkpointed_hover": ("replace", "tape1.backward(grads={p_mid: p_cp.grad, v_mid: v_cp.grad})"),
    "b12_crane_antisway": ("replace", "grad = gains.grad"),
    "b13_arm_posture_sgd": ("delete",),
    "b14_gripper_drop_contacts": ("replace", "slot = i"),
    "b15_cable_drone_safety_sync": ("replace", "load = wp.clone(load)"),
    "b16_planar_quad_gate": ("replace", "wp.launch(mixer, dim=1, inputs=[rotor, t], outputs=[wrench])"),
    "b17_joint_damping_sysid": ("replace", "qd_out[i] = qd_new * wp.exp(-damping[0] * DT)"),
    "b18_winch_payload_mass": ("replace", "acc[i] = (rope_tension(hook, s[0], s[1], 1.0 + 0.1 * float(i)) - 9.81 * mass[0]) / mass[0]"),
    "b19_drift_car_grip": ("replace", "vb = wp.cw_mul(vb, wp.vec3(1.0, GRIP, 1.0))"),
    "b20_arm_opspace_reach": ("replace", "f = f + wp.vec2(0.0, MG)"),
    "b21_tendon_capstan_grasp": ("replace", "for k in range(PULLEYS):"),
    "b22_snake_chain_reach": ("replace", "for j in range(N_LINKS):"),
    "b23_quad_drag_from_rest": ("replace", "speed = wp.length(lat)"),
    "b24_formation_repulsion": ("replace", "r = wp.length(d)"),
    "b25_pusher_friction_fit": ("replace", "wp.adjoint[v] += -mu_n * (1.0 - t * t) / VS * adj_ret"),
    "b26_quad_rotor_schedule": ("delete",),
    "b27_cable_sag_stiffness": ("replace", "wp.adjoint[d] += adj_ret * d / wp.sqrt(wp.dot(d, d) + 1.0e-12)"),
    "b28_motor_encoder_sysid": ("replace", "@wp.kernel"),
}
