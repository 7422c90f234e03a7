"""The one-line fix of every bug program, applied at its ``# expect:`` line.

("replace", text): the marked line becomes ``text`` (its indentation is kept;
a ``\\n`` in ``text`` starts a further line at the same indentation);
("delete",): the marked line is removed.
"""
FIXES = {
    "b01_bridge_cable_sag": ("replace", "ctx.sag.grad = wp.from_torch(adj_sag.clone())"),
    "b02_wind_farm_energy": ("replace", "ctx.power = wp.zeros((N_TURB, N_BIN), dtype=float, requires_grad=True)"),
    "b03_tire_grip_curve": ("replace", "ctx.coef = wp.from_torch(coef.detach(), dtype=wp.vec3, requires_grad=True)"),
    "b04_thermistor_calibration": ("replace", "ctx.tape.zero()\nctx.temp.grad.assign(wp.from_torch(adj_temp.contiguous()))"),
    "b05_pipe_friction_loss": ("replace", "ctx.tape.backward(grads={ctx.sse: wp.from_torch(adj_sse.contiguous())})"),
    "b06_battery_pack_thermal": ("replace", "return wp.to_torch(self.p_grad, requires_grad=False).clone()"),
    "b07_solar_panel_output": ("replace", "ctx.wx = wp.from_torch(frame.clone(), dtype=wp.vec3)"),
    "b08_heat_exchanger_fouling": ("replace", "opt.zero_grad(set_to_none=False)"),
    "b09_projectile_drag_fit": ("replace", "params.data -= LR * g"),
    "b10_office_zone_envelope": ("replace", "ctx.sim = copy.copy(sim)"),
    "b11_strain_rosette": ("replace", "return wp.to_torch(ctx.strain, requires_grad=False).clone()"),
    "b12_rc_snubber_timing": ("replace", "params.grad += wp.to_torch(params_wp.grad, requires_grad=False)"),
    "b13_greenhouse_co2": ("replace", "ctx.vent = wp.from_torch(vent.detach().contiguous(), requires_grad=True)"),
    "b14_seat_suspension_step": ("replace", "params_wp.grad.zero_()"),
    "b15_kiln_lumber_drying": ("replace", "return wp.to_torch(ctx.p.grad, requires_grad=False).clone()"),
    "b16_chimney_stack_draft": ("replace", "grad_p = wp.to_torch(ctx.p.grad, requires_grad=False).clone()"),
    "b17_sourdough_proofing": ("replace", "p.grad.zero_()\ntape.backward(loss)"),
    "b18_glacier_stake_velocity": ("replace", "tape.zero()"),
    "b19_bicycle_coastdown": ("replace", "opt.zero_grad(set_to_none=False)\nmisfit.grad.zero_()"),
    "b20_concrete_pour_curing": ("replace", "tape.zero()"),
}
