"""Write MANIFEST.md from verify_result.json and fixes_result.json (run verify.py --json and check_fixes.py --json first)."""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

DESC = {
    "b01_rigid_tumble.py": "Quaternion rigid bodies (BodyState struct of arrays) integrated on one tape with two states swapped every step; the gyroscopic/normalize step is non-linear in the state it reads.",
    "b02_membrane_sag.py": "Neo-Hookean FEM membrane (helper _fem2d): one force buffer is zero_()-ed inside the tape every substep and refilled by atomic_add, so the versions' gradients mix.",
    "b03_residual_stream.py": "Weight-tied residual tanh blocks: wp.copy(stream, h) inside the tape overwrites the stream the tanh block read.",
    "b04_bump_fit_adam.py": "warp.optim.Adam fit of Gaussian bumps; after the step centers.grad is zeroed twice (copy-paste) and widths.grad never, so widths' gradient sums over iterations.",
    "b05_splat_fit.py": "SGD(momentum) fit of splatted points; the renderer accumulates (atomic_add) into a canvas allocated once and never cleared, so from iteration 2 the image holds old splats.",
    "b06_rope_windows.py": "Pinned mass-spring rope (RopeState struct) recorded window by window on one tape; the state carried between windows is cloned outside the with-block, cutting the gradient.",
    "b07_attention_pool.py": "Single-query attention pooling; the softmax denominator comes from wp.utils.array_sum inside the tape, which records no adjoint.",
    "b08_sph_pressure.py": "SPH pressure force whose safe_length custom adjoint (helper _sph_kernels) assigns wp.adjoint[d]; d is also used for the force direction.",
    "b09_implicit_advection.py": "Backward-Euler advection-diffusion solved in NumPy, adjoint registered with tape.record_func; the backward solves with A instead of A^T (A non-symmetric, upwind).",
    "b10_box_rest_pose.py": "Box on a soft floor (wp.transform pose from height/roll/pitch); the softplus contact uses wp.where with an unguarded exp that overflows for the deepest corners -> NaN gradient.",
    "b11_ion_trap.py": "Coulomb ions in a harmonic trap, dim=(n, n) pair launch; the self pair is excluded with wp.where(i != j, 1/sqrt(r2), 0) -> NaN gradient.",
    "b12_poly_activation.py": "MLP with a learnable polynomial activation evaluated by Horner in a @wp.func whose loop bound is a runtime int: input-weight gradients wrong (coefficient gradients happen to be right).",
    "b13_volume_march.py": "Emission-absorption ray marching in a 3-D density grid; the transmittance is a loop-carried product in a loop over a runtime sample count.",
    "b14_rigid_registration.py": "Rigid point registration (rotation vector + translation); backward seeded with ones over the N residuals while the program's loss is their mean (ratio N = 10).",
    "b15_checkpoint_drift.py": "Two-segment checkpointed rollout with quadratic drag; the re-recorded first segment is seeded with the position adjoint only, not the velocity adjoint.",
    "b16_arm_ik_adam.py": "Planar 3-link IK (array of Joint structs, wp.transform chain) with Adam; opt.step is called before tape.backward, so each step uses the previous iteration's gradient.",
    "b17_color_correction.py": "3x3 colour-correction matrix + offset fitted with host-side gradient descent; ccm.grad is taken as a NumPy view, then tape.reset() zeroes it before it is used (the offset copy is fine).",
    "b18_sph_diagnostics.py": "One SPH step of a compressed blob; a density report recomputes rho in the taped buffer after recording and before backward().",
    "b19_mlp_regressor.py": "Two-layer SiLU MLP (helper _layers, kernel factory); the hidden activation buffer is allocated without requires_grad, so the first layer gets zero gradient.",
    "b20_splat_saliency.py": "Gather-style Gaussian splat renderer with a retain_grad image; the image is drawn twice on the tape (once for a coverage number), doubling every gradient.",
    "b21_floor_contacts.py": "Contact compaction into a ContactList struct (helper _contacts); the slot comes from a raw wp.atomic_add whose result is not replayed in the backward pass.",
    "b22_damped_ballistics.py": "Damped projectile system identification; the damping kernel copies then scales in place (v_out[i] *= keep[0]), so d/dkeep uses the scaled value.",
    "b23_camera_reprojection.py": "Pinhole reprojection in a @wp.func; the camera-space vector's depth component is re-assigned after the constructor (pc[2] = max(pc[2], near)), doubling the depth gradient.",
    "b24_light_fit.py": "Directional-light fit through a tone curve from helper _postfx, whose module sets enable_backward=False; every gradient upstream of the tone curve is zero.",
    "c01_rigid_tumble_preview.py": "Same rigid bodies, a fresh state allocated each step; after backward() two recorded states are reused as ping-pong buffers for an untaped preview.",
    "c02_membrane_sag_substeps.py": "Same membrane; each substep allocates a new force buffer and zero_()s it inside the tape before the launch that fills it.",
    "c03_trajectory_rows.py": "Projectiles with drag; the whole trajectory is one 2-D array, step t reads row view xs[t] and writes xs[t+1]; the loss reads the slice xs[1:] (generic @wp.func sq_norm).",
    "c04_bump_fit_clamped.py": "Adam bump fit with tape.zero() after the step and an in-place clamp of the widths outside the tape.",
    "c05_splat_fit_canvas.py": "Same splat fit; the renderer reuses one canvas but zero_()s it at the start of every render, before the splat launch.",
    "c06_rope_windows_log.py": "Same rope windows; the carried state is cloned inside the with-block and a host log line reads it.",
    "c07_attention_pool_masked.py": "Masked attention pooling; the denominator is a taped reduce launch, and wp.utils.array_sum inside the tape only counts a constant mask.",
    "c08_sph_pressure_inline.py": "SPH pressure with a custom length adjoint that assigns wp.adjoint[d], but every call passes a temporary expression, so nothing else feeds that adjoint.",
    "c09_implicit_advection_inverse.py": "Same implicit solve through record_func, backward applies the transposed inverse.",
    "c10_box_rest_pose_softplus.py": "Same box pose; the rejected wp.where branch is kept finite by clamping the exp argument.",
    "c11_ion_trap_cutoff.py": "Ion trap with a shifted cut-off Coulomb term: a real `if i != j` branch, and the wp.where inside it only sees r > 0.",
    "c12_poly_activation_factory.py": "Polynomial activation kernel built by an lru_cache'd factory; the Horner loop bound is a captured Python int, so Warp unrolls it.",
    "c13_volume_march_trans.py": "Ray marching with a runtime sample count that stores every transmittance in a 3-D array (the slice trans[:, :, 0:1] is fill_()-ed with 1).",
    "c14_rigid_registration_fill.py": "Same registration; res.grad.fill_(1/N) then tape.backward() matches the reported mean.",
    "c15_checkpoint_drift_assign.py": "Same checkpointed rollout; both x_mid.grad and v_mid.grad are assigned from the checkpoint adjoints before tape1.backward().",
    "c16_arm_ik_tape_zero.py": "Same IK; backward(), then opt.step, then tape.zero().",
    "c17_color_correction_views.py": "Same colour fit; .grad NumPy views are used for the update before tape.reset() clears them.",
    "c18_sph_density_report.py": "Same SPH step; the density report reuses the taped rho buffer only after backward().",
    "c19_mlp_regressor_standardized.py": "Same MLP with requires_grad hidden buffer; an input-standardisation array without requires_grad is computed from data inside the tape; the loss reads flatten() views.",
    "c20_splat_saliency_preview.py": "Same renderer; the retain_grad image has one taped writer, a blurred preview is drawn with record_tape=False into its own array.",
    "c21_floor_contacts_deep.py": "Same compaction through contacts.claim (func_replay); remaining wp.atomic_add / wp.atomic_max only log statistics, their results unused.",
    "c22_damped_ballistics_wind.py": "Damping written out of place (v_out = v_in * keep), followed by an in-place += of a wind impulse.",
    "c23_camera_reprojection_default.py": "Camera-space vector default-initialised (wp.vec3()) and each component assigned exactly once, depth already clamped.",
    "c24_light_fit_preview.py": "Same light fit with a differentiable tone curve; a helper module with enable_backward=False (quantise, histogram) runs only after backward().",
    "c25_heat_pingpong.py": "Explicit 2-D heat diffusion ping-ponging two buffers on one tape; each step is linear in the buffer it overwrites, so the swap is harmless.",
    "c26_mlp_microbatches.py": "Gradient accumulation over two micro-batches (two backward passes, parameters unchanged), then one SGD step on flatten() views and tape.zero().",
}


def fmt(v, n=4):
    return "[" + ", ".join("nan" if v is None or v != v else f"{x:.{n}g}" for x in v) + "]" if isinstance(v, list) else str(v)


def main():
    ver = {r["program"]: r for r in json.load(open(os.path.join(HERE, "verify_result.json")))}
    fixes = {r["program"]: r for r in json.load(open(os.path.join(HERE, "fixes_result.json")))}
    L = []
    L.append("# Set 9: planted Warp gradient bugs and correct look-alikes\n")
    L.append("Warp 1.19 on the CPU. Every program runs standalone (`python prog.py`, exit 0, a few seconds) and exposes either")
    L.append("`PARAMS0` + `evaluate(p) -> (loss, grad)` or `verify() -> (ad, fd)` (training loops: the gradient the optimizer")
    L.append("consumed at its last step vs central differences of the objective at those parameters).\n")
    L.append("* `python _verify/verify.py [prog ...]` compares AD with central finite differences; `rel_err = |ad - fd| / |fd|`")
    L.append("  (2-norms), MATCH when below the program's tolerance (1e-2 for all programs here). A NaN gradient where FD is finite is DIFFER.")
    L.append("* `python _verify/check_fixes.py` checks that each bug program has exactly one `# expect:` marker (in the program or a helper it")
    L.append("  imports), copies the set to `_verify/_fixed/<prog>/`, applies the fix in `_verify/fixes.py` to the marked line")
    L.append("  (replace it, delete it, or for b16 move it below `tape.backward(loss)`), and re-runs the comparison.")
    L.append("* `python _verify/make_manifest.py` regenerates this file from the two JSON results.\n")
    L.append("Helpers without markers (shared): `_rigid.py`, `_fem2d.py`, `_rope.py`, `_nn_ops.py`, `_sph.py`, `_volume.py`, `_layers.py`, `_contacts.py`, `_display.py`.")
    L.append("Helpers with a marker (imported by one bug program only): `_sph_kernels.py` (b08), `_postfx.py` (b24).\n")
    L.append("## Bug programs\n")
    L.append("| program | class | marked line | description | AD (first entries) | FD (first entries) | rel_err | fixed variant |")
    L.append("|---|---|---|---|---|---|---|---|")
    counts = {}
    for prog in sorted(p for p in ver if p.startswith("b")):
        r = ver[prog]
        f = fixes[prog]
        (mfile, mline, cls) = f["markers"][0]
        counts[cls] = counts.get(cls, 0) + 1
        err = "NaN in AD" if r["rel_err"] != r["rel_err"] else f"{r['rel_err']:.3g}"
        ratio = r.get("median_ratio")
        L.append(f"| `{prog}` | {cls} | `{mfile}:{mline}` | {DESC[prog]} | {fmt(r['ad_head'])} | {fmt(r['fd_head'])} | "
                 f"{err} ({r['status']}) | {f['fixed_status']}, rel_err {float(f['fixed_rel_err']):.2g} |")
    L.append("")
    L.append("Classes: " + ", ".join(f"{k} x{v}" for k, v in sorted(counts.items())) + "\n")
    L.append("## Correct programs\n")
    L.append("| program | description | AD (first entries) | FD (first entries) | rel_err |")
    L.append("|---|---|---|---|---|")
    for prog in sorted(p for p in ver if p.startswith("c")):
        r = ver[prog]
        L.append(f"| `{prog}` | {DESC[prog]} | {fmt(r['ad_head'])} | {fmt(r['fd_head'])} | {r['rel_err']:.2g} ({r['status']}) |")
    L.append("")
    L.append("## Twins\n")
    L.append("b01/c01, b02/c02, b03/c25 (overwrite vs harmless linear ping-pong), b04/c04, b05/c05, b06/c06, b07/c07, b08/c08, b09/c09, b10/c10,")
    L.append("b11/c11, b12/c12, b13/c13, b14/c14, b15/c15, b16/c16, b17/c17, b18/c18, b19/c19, b20/c20, b21/c21, b22/c22, b23/c23, b24/c24;")
    L.append("c03 (row views of one trajectory array) and c26 (intentional micro-batch accumulation) are stand-alone look-alikes.\n")
    open(os.path.join(ROOT, "MANIFEST.md"), "w").write("\n".join(L) + "\n")
    print("wrote MANIFEST.md")


if __name__ == "__main__":
    main()
