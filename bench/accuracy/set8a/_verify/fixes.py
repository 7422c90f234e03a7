"""For each bug program: (file, old text, new text) substitutions that fix the marked bug."""

FIXES = {
    "b01_chain_pingpong.py": [
        ("b01_chain_pingpong.py", "requires_grad=True) for _ in range(2)]\n        self.v = [wp.zeros(n, dtype=wp.vec2d, requires_grad=True) for _ in range(2)]",
         "requires_grad=True) for _ in range(STEPS + 1)]\n        self.v = [wp.zeros(n, dtype=wp.vec2d, requires_grad=True) for _ in range(STEPS + 1)]"),
        ("b01_chain_pingpong.py", "a, b = k % 2, (k + 1) % 2", "a, b = k, k + 1"),
        ("b01_chain_pingpong.py", "self.x[steps % 2]", "self.x[steps]"),
    ],
}
FIXES["b02_cloth_ground_substeps.py"] = [
    ("b02_cloth_ground_substeps.py", "self.forces.zero_()  # expect: overwrite",
     "self.forces = wp.zeros(self.n, dtype=wp.vec3d, requires_grad=True)"),
]
FIXES["b03_rod_radiative_cooling.py"] = [
    ("b03_rod_radiative_cooling.py", "    wp.launch(conduct, dim=N, inputs=[T_in, p, cfg], outputs=[T_out])\n    wp.launch(radiate, dim=N, inputs=[T_out, p, cfg], outputs=[T_out])  # expect: overwrite",
     "    mid = wp.zeros_like(T_out)\n    wp.launch(conduct, dim=N, inputs=[T_in, p, cfg], outputs=[mid])\n    wp.launch(radiate, dim=N, inputs=[mid, p, cfg], outputs=[T_out])"),
]
FIXES["b04_ball_throw_episodes.py"] = [
    ("b04_ball_throw_episodes.py", "    env.reset()  # expect: untaped_write\n    tape.backward(loss)\n",
     "    tape.backward(loss)\n    env.reset()\n"),
]
FIXES["b05_fountain_drag_wind.py"] = [
    ("b05_fountain_drag_wind.py", "    final = xs[-1].numpy()\n    np.clip(final, BOX_LO, BOX_HI, out=final)  # expect: untaped_write",
     "    final = xs[-1].numpy().copy()\n    np.clip(final, BOX_LO, BOX_HI, out=final)"),
]
FIXES["b06_planar_thrusters.py"] = [
    ("_rigid2d.py", "torque = wp.zeros(n, dtype=wp.float64)  # expect: requires_grad",
     "torque = wp.zeros(n, dtype=wp.float64, requires_grad=True)"),
]
FIXES["b07_oscillator_sysid.py"] = [
    ("b07_oscillator_sysid.py", "loss.grad.zero_()  # expect: missing_zero", "tape.zero()"),
]
FIXES["b08_particle_deposition.py"] = [
    ("b08_particle_deposition.py", "        wp.launch(splat, dim=(self.n, G, G)",
     "        self.grid.zero_(); wp.launch(splat, dim=(self.n, G, G)"),
]
FIXES["b09_hair_strand_forces.py"] = [
    ("b09_hair_strand_forces.py",
     "        wp.launch(strand_forces, dim=N, inputs=[self.x[k], self.v[k], params, wp.float64(REST)], outputs=[self.f[k]])  # expect: retain_grad\n",
     ""),
]
FIXES["b10_swarm_gains.py"] = [
    ("b10_swarm_gains.py", "tape.backward(grads={cost: wp.ones(N, dtype=wp.float64)})  # expect: seeding",
     "tape.backward(grads={cost: wp.full(N, 1.0 / N, dtype=wp.float64)})"),
]
FIXES["b11_orbit_checkpoint.py"] = [
    ("b11_orbit_checkpoint.py", "tape1.backward(grads={xs1[-1]: x_cp.grad})  # expect: seeding",
     "tape1.backward(grads={xs1[-1]: x_cp.grad, vs1[-1]: v_cp.grad})"),
]
FIXES["b12_lander_schedule.py"] = [
    ("b12_lander_schedule.py", "        opt.step()  # expect: grad_read\n        tape.backward(loss)\n",
     "        tape.backward(loss)\n        opt.step()\n"),
]
FIXES["b13_ground_contacts_compact.py"] = [
    ("b13_ground_contacts_compact.py",
     "@wp.kernel\ndef gather_contacts(x: wp.array(dtype=wp.vec2d), count: wp.array(dtype=wp.int32),\n",
     "@wp.kernel\ndef claim_slots(x: wp.array(dtype=wp.vec2d), count: wp.array(dtype=wp.int32), slots: wp.array(dtype=wp.int32)):\n"
     "    i = wp.tid()\n    if -x[i][1] > wp.float64(0.0):\n        slots[i] = wp.atomic_add(count, 0, 1)\n\n\n"
     "@wp.kernel\ndef gather_contacts(x: wp.array(dtype=wp.vec2d), slots: wp.array(dtype=wp.int32),\n"),
    ("b13_ground_contacts_compact.py", "        slot = wp.atomic_add(count, 0, 1)  # expect: atomic_replay", "        slot = slots[i]"),
    ("b13_ground_contacts_compact.py", "        wp.launch(gather_contacts, dim=N, inputs=[x], outputs=[count, depth, owner])",
     "        slots = wp.zeros(N, dtype=wp.int32)\n        wp.launch(claim_slots, dim=N, inputs=[x, count, slots], record_tape=False)\n"
     "        wp.launch(gather_contacts, dim=N, inputs=[x, slots], outputs=[depth, owner])"),
]
FIXES["b14_pendulum_windows.py"] = [
    ("b14_pendulum_windows.py", "    total = 0.0\n    for w in range(WINDOWS):", "    total = 0.0\n    tape = wp.Tape()\n    losses = []\n    for w in range(WINDOWS):"),
    ("b14_pendulum_windows.py", "        tape = wp.Tape()  # expect: truncation\n", ""),
    ("b14_pendulum_windows.py", "        th = [wp.clone(th_carry, requires_grad=True)]", "        with tape:\n            th0 = wp.clone(th_carry, requires_grad=True)\n            om0 = wp.clone(om_carry, requires_grad=True)\n        th = [th0]"),
    ("b14_pendulum_windows.py", "        om = [wp.clone(om_carry, requires_grad=True)]", "        om = [om0]"),
    ("b14_pendulum_windows.py", "        tape.backward(loss)\n        total += float(loss.numpy()[0])\n        wp.copy(th_carry, th[-1])\n        wp.copy(om_carry, om[-1])\n",
     "        losses.append(loss)\n        total += float(loss.numpy()[0])\n        th_carry, om_carry = th[-1], om[-1]\n"
     "    for loss in losses:\n        tape.backward(loss)\n        for l2 in losses: l2.grad.zero_()\n"),
]
FIXES["b15_composite_wall_heat.py"] = [
    ("b15_composite_wall_heat.py", "outputs=[self.k], record_tape=False)  # expect: truncation", "outputs=[self.k])"),
]
FIXES["b16_ball_restitution.py"] = [
    ("_integrators.py", "def ground_bounce(h: wp.array(dtype=wp.float64), v: wp.array(dtype=wp.float64), coef: wp.array(dtype=wp.float64)):\n    i = wp.tid()\n    if h[i] < wp.float64(0.0) and v[i] < wp.float64(0.0):\n        v[i] *= -coef[0]  # expect: inplace_op\n",
     "def ground_bounce(h: wp.array(dtype=wp.float64), v: wp.array(dtype=wp.float64), coef: wp.array(dtype=wp.float64), v_out: wp.array(dtype=wp.float64)):\n    i = wp.tid()\n    vi = v[i]\n    if h[i] < wp.float64(0.0) and vi < wp.float64(0.0):\n        vi = -coef[0] * vi\n    v_out[i] = vi\n"),
    ("b16_ball_restitution.py", "        wp.launch(ground_bounce, dim=n, inputs=[hs[k + 1], vs[k + 1], coef])",
     "        vb = wp.zeros(n, dtype=wp.float64, requires_grad=True)\n        wp.launch(ground_bounce, dim=n, inputs=[hs[k + 1], vs[k + 1], coef], outputs=[vb])\n        vs[k + 1] = vb"),
]
FIXES["b17_sliding_blocks_friction.py"] = [
    ("b17_sliding_blocks_friction.py", "        f[0] = wp.clamp(f[0], -mu * fn, mu * fn)  # expect: component_reassign",
     "        f = wp.vec2d(wp.clamp(-kslip * v[0], -mu * fn, mu * fn), fn)"),
]
FIXES["b18_pendulum_bank_substeps.py"] = [
    ("b18_pendulum_bank_substeps.py", "    for s in range(substeps):", "    for s in range(SUBSTEPS):"),
]
FIXES["b19_glazing_absorption.py"] = [
    ("_optics.py", "    for k in range(n_layers):", "    for k in range(3):"),
]
FIXES["b20_nbody_masses.py"] = [
    ("b20_nbody_masses.py", "    inv_r3 = wp.where(i == j, wp.float64(0.0), wp.float64(1.0) / (r2 * wp.sqrt(r2)))  # expect: nonfinite",
     "    inv_r3 = wp.float64(0.0)\n    if i != j:\n        inv_r3 = wp.float64(1.0) / (r2 * wp.sqrt(r2))"),
]
FIXES["b21_pebbles_friction.py"] = [
    ("_contact.py", "        slip = wp.sqrt(v[0] * v[0] + v[2] * v[2])  # expect: nonfinite",
     "        slip = wp.sqrt(v[0] * v[0] + v[2] * v[2] + wp.float64(1.0e-12))"),
]
FIXES["b22_cable_sag.py"] = [
    ("_rodmath.py", "    wp.adjoint[d] = adj_ret / l * d  # expect: custom_adjoint", "    wp.adjoint[d] += adj_ret / l * d"),
]
FIXES["b23_terrain_drop.py"] = [
    ("_terrain.py", "    wp.adjoint[phi] += -adj_ret / (wp.float64(1.0) + wp.exp(-phi / h))  # expect: custom_adjoint",
     "    wp.adjoint[phi] += -adj_ret / (wp.float64(1.0) + wp.exp(phi / h))"),
]
FIXES["b24_box_bounces.py"] = [
    ("_walls.py", "@wp.kernel(enable_backward=False)  # expect: adjoint_disabled", "@wp.kernel"),
]
FIXES["b25_rope_verlet_drag.py"] = [
    ("b25_rope_verlet_drag.py", "            wp.copy(self.x_prev, self.xs[k])  # expect: overwrite", "            self.x_prev = self.xs[k]"),
]
