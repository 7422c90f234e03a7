import json, os, re, glob
SET = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
res = {json.loads(l)['program']: json.loads(l) for l in open(os.path.join(SET, '_verify/results.jsonl'))}
fix = {json.loads(l)['program'].replace(' (fixed)', ''): json.loads(l) for l in open(os.path.join(SET, '_verify/results_fixed.jsonl'))}

# where is the marker: search the program and the helper modules it imports
def marker(prog):
    src = open(os.path.join(SET, prog)).read()
    files = [prog]
    for m in re.findall(r'^(?:from|import) (_\w+)', src, re.M):
        files.append(m + '.py')
    hits = []
    for f in files:
        for i, line in enumerate(open(os.path.join(SET, f)), 1):
            m = re.search(r'# expect: (\w+)', line)
            if m:
                hits.append((f, i, m.group(1)))
    assert len(hits) == 1, (prog, hits)
    return hits[0]

DESC = {
 'b01_chain_pingpong.py': 'ping-pong state buffers on one tape: step k+2 overwrites the (x, v) buffer step k read (nonlinear springs)',
 'b02_cloth_ground_substeps.py': 'shared force buffer zero_()-ed inside the tape each substep, after integrate read it; accumulating refill mixes substeps',
 'b03_rod_radiative_cooling.py': 'radiation launch passes the same array as input and output (in-place T^4 update)',
 'b04_ball_throw_episodes.py': 'env.reset() zeroes every recorded state between recording and backward()',
 'b05_fountain_drag_wind.py': 'np.clip(..., out=) through the CPU .numpy() view of the final state before backward()',
 'b06_planar_thrusters.py': 'torque intermediate allocated without requires_grad in helper alloc_wrench(); attitude path lost',
 'b07_oscillator_sysid.py': 'training loop zeroes loss.grad instead of the parameter gradient: theta.grad sums over iterations',
 'b08_particle_deposition.py': 'deposition grid allocated once and never cleared; splat accumulates on the previous iteration\'s density',
 'b09_hair_strand_forces.py': 'retain_grad force array written a second time by a monitoring launch: force path counted twice',
 'b10_swarm_gains.py': 'backward seeded with ones over N per-drone costs while the program optimises the mean',
 'b11_orbit_checkpoint.py': 'checkpointed backward seeds only the position adjoint of the first segment, velocity adjoint dropped',
 'b12_lander_schedule.py': 'Adam step reads schedule.grad before tape.backward() (after tape.zero(): always zeros)',
 'b13_ground_contacts_compact.py': 'contact compaction uses the return of wp.atomic_add as the slot index in a differentiated kernel',
 'b14_pendulum_windows.py': 'new tape per window, state carried by wp.copy outside any tape: gradient truncated at each window start',
 'b15_composite_wall_heat.py': 'conductivity transform k = exp(log_k) launched with record_tape=False inside the tape',
 'b16_ball_restitution.py': 'v[i] *= -e in place inside a branch on v: backward replays the branch on the updated v',
 'b17_sliding_blocks_friction.py': 'friction component f[0] reassigned (clamped) after the vector was built in a @wp.func',
 'b18_pendulum_bank_substeps.py': 'symplectic-Euler recurrence carried through a dynamic substep loop (runtime trip count)',
 'b19_glazing_absorption.py': 'product recurrence t = t*exp(-mu dz/cos) in a dynamic loop inside a helper @wp.func',
 'b20_nbody_masses.py': 'wp.where rejects the self pair but 1/(r2*sqrt(r2)) at r2=0 still yields NaN adjoints',
 'b21_pebbles_friction.py': 'sqrt of tangential slip speed at zero slip (pebble dropped straight down): NaN adjoint',
 'b22_cable_sag.py': 'custom adjoint of safe_length assigns wp.adjoint[d] (drops the d/l contribution)',
 'b23_terrain_drop.py': 'custom adjoint of a stable softplus uses sigmoid(phi/h) instead of sigmoid(-phi/h)',
 'b24_box_bounces.py': 'wall-reflection kernel built with enable_backward=False but launched on the tape',
 'b25_rope_verlet_drag.py': 'wp.copy(x_prev, x) inside the tape overwrites the previous-position buffer the Verlet step read (quadratic drag)',
}
FIXDESC = {
 'b01_chain_pingpong.py': 'one state per step (list of STEPS+1)',
 'b02_cloth_ground_substeps.py': 'fresh force buffer per substep',
 'b03_rod_radiative_cooling.py': 'conduct into a separate mid array',
 'b04_ball_throw_episodes.py': 'reset after backward()',
 'b05_fountain_drag_wind.py': 'clip a .copy()',
 'b06_planar_thrusters.py': 'requires_grad=True',
 'b07_oscillator_sysid.py': 'tape.zero()',
 'b08_particle_deposition.py': 'grid.zero_() before the splat',
 'b09_hair_strand_forces.py': 'drop the monitoring relaunch',
 'b10_swarm_gains.py': 'seed with 1/N',
 'b11_orbit_checkpoint.py': 'also seed vs1[-1] with v_cp.grad',
 'b12_lander_schedule.py': 'step after backward()',
 'b13_ground_contacts_compact.py': 'claim slots in an untaped launch',
 'b14_pendulum_windows.py': 'one tape over all windows, carry cloned on the tape',
 'b15_composite_wall_heat.py': 'drop record_tape=False',
 'b16_ball_restitution.py': 'bounce into a separate v_out array',
 'b17_sliding_blocks_friction.py': 'build the vector once with the clamped value',
 'b18_pendulum_bank_substeps.py': 'range(SUBSTEPS) constant (16, unrolled)',
 'b19_glazing_absorption.py': 'range(3) constant (unrolled)',
 'b20_nbody_masses.py': 'if i != j branch instead of where()',
 'b21_pebbles_friction.py': 'sqrt(... + 1e-12)',
 'b22_cable_sag.py': 'wp.adjoint[d] += ...',
 'b23_terrain_drop.py': 'exp(+phi/h) in the denominator',
 'b24_box_bounces.py': 'plain @wp.kernel',
 'b25_rope_verlet_drag.py': 'rebind x_prev = xs[k] (no copy)',
}
TWIN = {
 'c01_chain_states_list.py': 'b01',
 'c02_cloth_ground_force_pool.py': 'b02',
 'c03_rod_radiative_heater.py': 'b03',
 'c04_ball_throw_reset_after.py': 'b04',
 'c05_fountain_clip_after_backward.py': 'b05',
 'c06_planar_thrusters_flags.py': 'b06',
 'c07_oscillator_sysid_zero_grad.py': 'b07',
 'c08_particle_deposition_cleared.py': 'b08',
 'c09_hair_strand_force_sensitivity.py': 'b09',
 'c10_swarm_gains_mean_kernel.py': 'b10',
 'c11_orbit_checkpoint_full_seed.py': 'b11',
 'c12_pendulum_bank_static_substeps.py': 'b18',
 'c13_nbody_softened.py': 'b20',
 'c14_cable_sag_accumulating_adjoint.py': 'b22',
 'c15_cable_sag_single_use_adjoint.py': 'b22',
 'c16_box_bounces_raster.py': 'b24',
 'c17_composite_wall_ambient.py': 'b15',
 'c18_ground_contacts_per_grain.py': 'b13',
 'c19_sliding_blocks_components_once.py': 'b17',
 'c20_lander_schedule_step_after.py': 'b12',
 'c21_pendulum_windows_one_tape.py': 'b14',
 'c22_hair_strand_force_log.py': 'b09',
 'c23_rope_verlet_prev_buffers.py': 'b25',
 'c24_ball_restitution_split.py': 'b16',
}
def fmt(v, k=3):
    return '[' + ', '.join(f'{x:.4g}' for x in v[:k]) + (', …' if len(v) > k else '') + ']'

out = []
out.append('# set8a — physics / simulation gradient-bug evaluation set\n')
out.append('Warp 1.19, CPU. Every program defines `PARAMS0` + `evaluate(p)` or `verify()`, and runs standalone (`python prog.py`, exit 0, a few seconds with a warm kernel cache).\n')
out.append('Ground truth: `python _verify/verify.py prog.py ...` (central FD vs the gradient the program computes/consumes, `rel_err = |AD-FD|/|FD|`, MATCH below 1e-2); `python _verify/verify.py --fixed bNN_*.py` applies the fix recorded in `_verify/fixes.py` to a scratch copy and re-checks. Helper modules (`_*.py`) sit beside the programs; a bug marker may live in a helper.\n')
out.append('For `verify()` programs (b07, b08, b12 and twins c07, c08, c20) AD is the gradient the optimiser actually consumed at a later iteration and FD is the objective\'s gradient at the parameters of that iteration.\n')
out.append('\n## Bug programs\n')
out.append('| program | class | marked line | bug | AD (first comps) | FD | rel_err | fixed variant (fix → rel_err) |')
out.append('|---|---|---|---|---|---|---|---|')
for p in sorted(DESC):
    f, ln, cls = marker(p)
    r = res[p]; fx = fix[p]
    rel = 'NaN (AD non-finite)' if r['rel_err'] != r['rel_err'] else f"{r['rel_err']:.3g}"
    out.append(f"| {p} | {cls} | {f}:{ln} | {DESC[p]} | {fmt(r['ad'])} | {fmt(r['fd'])} | {rel} {r['verdict']} | {FIXDESC[p]} → {fx['rel_err']:.2g} {fx['verdict']} |")
out.append('\n## Correct look-alikes\n')
out.append('| program | twin of | first line | AD (first comps) | FD | rel_err |')
out.append('|---|---|---|---|---|---|')
for p in sorted(TWIN):
    first = open(os.path.join(SET, p)).readline().strip().replace('# correct: ', '')
    r = res[p]
    out.append(f"| {p} | {TWIN[p]} | {first} | {fmt(r['ad'])} | {fmt(r['fd'])} | {r['rel_err']:.2g} {r['verdict']} |")
out.append('')
open(os.path.join(SET, 'MANIFEST.md'), 'w').write('\n'.join(out) + '\n')
print('\n'.join(out))
