"""Write MANIFEST.md from the measured results (_verify/results.json and
_verify/fix_results.json).  Nothing in the tables is typed by hand except
the one-sentence descriptions of the bug programs below."""
import collections
import glob
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
SET = os.path.dirname(HERE)

BUG_DESC = {
    "b01_mlp_pingpong_layers": "The MLP's activation list reuses buf_a for layer 3's output, so the activations layer 2 read are overwritten on the tape and layer 2's adjoint (weight gradient, tanh') uses the wrong values.",
    "b02_rmsnorm_inplace_alias": "The RMSNorm output is aliased to its input (h_norm = h), so the kernel overwrites the row it normalises and its adjoint recomputes the statistics from normalised values.",
    "b03_multiview_shared_framebuffer": "Both camera views render into one cached framebuffer that is zero_()-ed and refilled on the tape after the first view's loss launch read it.",
    "b04_prefetch_batch_before_backward": "The next mini-batch is uploaded into the device batch buffers between recording and backward, so the first layer's and the cross-entropy's adjoints read the wrong batch.",
    "b05_rigid_fit_numpy_view_centering": "A diagnostic centres the source scan in place through a CPU .numpy() view between recording and backward, changing the points the residual kernel's adjoint reads.",
    "b06_fourier_field_struct_params": "The helper allocates the Fourier-feature buffer without requires_grad, so no gradient reaches the learned frequency matrix B in the wp.struct.",
    "b07_splat_opacity_zeros_like": "Activated opacities live in wp.zeros_like(radius_px), which inherits requires_grad=False from the culling-radius array, so the opacity logits get no gradient.",
    "b08_rbf_surface_minibatch_sgd": "zero_grad() zeroes loss.grad instead of calling tape.zero(), so parameter gradients accumulate across SGD steps.",
    "b09_soft_histogram_matching": "reset() clears hist.grad instead of the histogram, so the atomically splatted soft histogram accumulates over iterations.",
    "b10_attention_logit_monitor": "An entropy monitor relaunches the logits kernel on the tape into the retain_grad scores array, so the query/key gradients are counted twice.",
    "b11_siren_image_ones_seed": "Per-pixel errors are seeded with ones (the sum) while the program reports and optimises their mean.",
    "b12_duffing_checkpoint_seed": "The re-recorded first segment of a checkpointed rollout is seeded with the position adjoint only; the velocity adjoint is dropped.",
    "b13_capsule_sdf_numpy_adam": "The gradient is kept as a NumPy view of theta.grad and tape.zero() clears it before the NumPy Adam step uses it.",
    "b14_icp_compacted_residuals": "Residual compaction takes its slot from wp.atomic_add's return value, which the backward pass does not replay, so adjoints land on the wrong slots.",
    "b15_centered_features_numpy_mean": "The batch feature mean is taken through .numpy() into a new array while the tape records, cutting the gradient through the centring.",
    "b16_sir_log_rates_untaped": "The log-rate to rate transform is launched with record_tape=False inside the tape, so the log-parameters receive no gradient.",
    "b17_attention_pooling_array_sum": "The softmax denominator is reduced with wp.utils.array_sum, which no tape records, so the gradient through the normaliser is lost.",
    "b18_layernorm_affine_inplace": "The LayerNorm affine applies y[n, j] *= gamma[j] in place in the kernel, so gamma's adjoint reads the already scaled value.",
    "b19_ricker_stock_harvest": "The Ricker step applies n_out[s] *= 1 - harvest[s] in place, so the harvest adjoint reads the already harvested abundance.",
    "b20_camera_pose_reprojection": "project() reassigns component pc[2] of its vec3 parameter (near-plane clamp), which leaks the depth adjoint to the caller twice.",
    "b21_lotka_volterra_kernel_loop": "The in-kernel Euler loop runs to the runtime n_steps (a dynamic loop), so the nonlinear predator-prey recurrence is not replayed in the backward pass.",
    "b22_kernel_regression_field": "The Nadaraya-Watson @wp.func loops to a runtime centre count and divides num/den after that dynamic loop, so the backward pass sees the pre-loop values.",
    "b23_mmd_generator_laplace_kernel": "The Laplacian kernel uses sqrt(dot(d, d)), whose adjoint is NaN for the self-pairs (d = 0) included in the MMD sum.",
    "b24_volume_density_softplus": "softplus is written as wp.where(z > 20, z, log(1 + exp(z))); exp overflows in the rejected branch for dense samples and the adjoint becomes NaN.",
    "b25_robust_curve_fit_custom_grad": "The pseudo-Huber custom adjoint assigns wp.adjoint[r] instead of accumulating, discarding the quadratic term's contribution to r's adjoint.",
    "b26_polygon_deform_edge_length": "The custom adjoint of edge_length() forgets to multiply by adj_ret.",
    "b27_pose_through_frozen_field": "The positional-encoding kernel is built with enable_backward=False but sits on the gradient path from the pose to the loss.",
}


def fmt(v, p=4):
    if isinstance(v, (int, float)):
        return f"{v:.{p}g}" if isinstance(v, float) else str(v)
    return str(v)


def main():
    with open(os.path.join(HERE, "results.json")) as f:
        res = json.load(f)
    with open(os.path.join(HERE, "fix_results.json")) as f:
        fixres = json.load(f)
    bugs = sorted(k for k in res if k.startswith("b"))
    corrects = sorted(k for k in res if k.startswith("c"))
    helpers = sorted(os.path.basename(h) for h in glob.glob(os.path.join(SET, "_*.py")))
    importers = collections.defaultdict(list)
    for p in sorted(glob.glob(os.path.join(SET, "[bc][0-9][0-9]_*.py"))):
        src = open(p).read()
        for m in re.findall(r"^\s*(?:import|from)\s+(_\w+)", src, re.M):
            importers[m + ".py"].append(os.path.basename(p))

    counts = collections.Counter(res[b]["expected"]["cls"] for b in bugs)
    L = []
    L.append("# Set 10b: gradient-bug evaluation set (learning and inverse problems)\n")
    L.append("Generated by `_verify/make_manifest.py` from `_verify/results.json` (written by `_verify/verify.py`) and "
             "`_verify/fix_results.json` (written by `_verify/check_fixes.py`). All numbers are measured outputs: "
             "AD is the gradient the program computes (`evaluate(PARAMS0)` or `verify()`), FD is central finite "
             "differences of the program's objective; rel_err = |AD - FD| / |FD| (2-norms), MATCH below 1e-2, "
             "non-finite AD with finite FD is DIFFER. Warp 1.19.0, CPU.\n")
    ok_b = sum(res[b]["ok"] for b in bugs)
    ok_c = sum(res[c]["ok"] for c in corrects)
    ok_f = sum(fixres.get(b, {}).get("ok", False) for b in bugs)
    L.append(f"Summary: {len(bugs)} bug programs ({ok_b} DIFFER as planted), {len(corrects)} correct programs "
             f"({ok_c} MATCH), {ok_f}/{len(bugs)} fixed variants MATCH.\n")
    L.append("Bug programs per class: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + ".\n")

    L.append("## Bug programs\n")
    L.append("| program | class | marked file:line | description | mode | AD[0] | FD[0] | rel_err | verdict | fix at marked line | fixed rel_err | fixed verdict |")
    L.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for b in bugs:
        r = res[b]
        e = r["expected"]
        fr = fixres.get(b, {})
        fix = fr.get("fix_new", "?").replace("|", "\\|").replace("\n", " ")
        L.append(f"| {b}.py | {e['cls']} | {e['file']}:{e['line']} | {BUG_DESC.get(b, '')} | {r.get('mode')} | "
                 f"{fmt(r['ad'][0])} | {fmt(r['fd'][0])} | {fmt(r.get('rel_err'), 3)} | {r['verdict']} | `{fix}` | "
                 f"{fmt(fr.get('rel_err'), 3)} | {fr.get('verdict')} |")
    L.append("")
    L.append("## Correct look-alikes\n")
    L.append("| program | near-miss it resembles (first line) | mode | AD[0] | FD[0] | rel_err | verdict |")
    L.append("|---|---|---|---|---|---|---|")
    for c in corrects:
        r = res[c]
        L.append(f"| {c}.py | {r['expected']['desc']} | {r.get('mode')} | {fmt(r['ad'][0])} | {fmt(r['fd'][0])} | "
                 f"{fmt(r.get('rel_err'), 3)} | {r['verdict']} |")
    L.append("")
    L.append("## Helper modules\n")
    L.append("| helper | imported by | holds the marker of |")
    L.append("|---|---|---|")
    for h in helpers:
        marked = [b for b in bugs if res[b]["expected"].get("file") == h]
        L.append(f"| {h} | {', '.join(importers.get(h, [])) or '-'} | {', '.join(marked) or '- (no marker)'} |")
    L.append("")
    L.append("## Reproduce\n")
    L.append("```\ncd bench/accuracy/set10b\npython _verify/verify.py        # ground truth -> _verify/results.json\n"
             "python _verify/check_fixes.py   # fixed variants in _verify/_fixed/ -> _verify/fix_results.json\n"
             "python _verify/make_manifest.py # this file\n```\n")
    L.append("Each program exposes `PARAMS0` + `evaluate(p) -> (loss, grad)` (FD taken by `_verify/_runner.py` around PARAMS0 "
             "with the program's `FD_EPS`, default 1e-3) or `verify() -> (ad, fd)` (for bugs that only show from the second "
             "optimizer iteration on, where the program itself differences its objective at that iteration's parameters).\n")
    with open(os.path.join(SET, "MANIFEST.md"), "w") as f:
        f.write("\n".join(L))
    print("wrote MANIFEST.md")


if __name__ == "__main__":
    main()
