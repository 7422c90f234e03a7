"""Write MANIFEST.md from the measured results (results.json, fix_results.json)."""
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "..", "_verify"))  # the shared ground-truth scripts
from check_fixes import helper_users  # noqa: E402
from meta import DESC  # noqa: E402

res = json.load(open(os.path.join(HERE, "results.json")))
fix = json.load(open(os.path.join(HERE, "fix_results.json")))
cold_path = os.path.join(HERE, "cold_times.json")
cold = json.load(open(cold_path)) if os.path.exists(cold_path) else {}


def g(v):
    if isinstance(v, str):
        return v
    if v is None:
        return "-"
    return f"{v:.4g}"


def first(a):
    return g(a[0]) if a else "-"


progs = sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(ROOT, "[bc][0-9][0-9]_*.py")))
bugs = [p for p in progs if p.startswith("b")]
goods = [p for p in progs if p.startswith("c")]

lines = []
lines.append("# Set 21: greenhouses, battery packs, solar-farm soiling, tyres, glaciers, soil water retention, retail demand, motorway traffic, glass tempering, wildfires, water mains, grain markets, furnace radiation, crowd evacuation, permafrost, track cycling, suspension footbridges, trampolines, orchard irrigation, radionuclide decay chains, car parks, traction kites, ice hockey and SCARA robot calibration — planted Warp gradient bugs and correct look-alikes\n")
lines.append("All numbers below are copied by `_verify/make_manifest.py` from `_verify/results.json` "
             "(written by `bench/accuracy/_verify/verify.py`) and `_verify/fix_results.json` (written by "
             "`bench/accuracy/_verify/check_fixes.py`); nothing is typed in by hand.\n")
lines.append("Ground truth: Warp AD gradient vs central finite differences of the quantity the program reports "
             "(`rel_err = |ad - fd| / |fd|`, 2-norms; MATCH below 1e-2; NaN AD with finite FD is DIFFER). "
             "Programs expose `PARAMS0` + `evaluate(p) -> (loss, grad)` (the driver differences `loss` "
             "with step `FD_EPS`, default 1e-3) or `verify() -> (ad, fd)`. Warp 1.19.0, CPU, float32 kernels "
             "(b07, b08, b09 and c07, c08, c09: the reported loss is computed in float64 NumPy on the host; "
             "b13/c13: the reported radiosities come from a float64 `np.linalg.solve`).\n")
lines.append("What is measured, by class:\n")
lines.append("- `grad_read` (b19 and c19) and `missing_zero` (b22 and c22): `verify()` runs the program's own "
             "optimisation loop for 3 iterations and compares the gradient the update actually consumed at the last "
             "iteration (recorded by the loop right before its update) with central FD (step 1e-3) of the objective "
             "at that iterate. b19 consumes an all-zero gradient (cloned before `tape.backward()`); b22 an "
             "accumulated one (never zeroed).")
lines.append("- `fixed_point` (b12, b13 and c12, c13): `evaluate` returns the loss at the converged equilibrium the "
             "program reports (b12: the tatonnement iterated untaped until the update is below 1e-7; b13: a direct "
             "linear solve of the radiosity system) and the gradient of the taped iteration. The ground truth is "
             "therefore AD of the truncated map (b12: 15 sweeps at contraction rate about 0.87; b13: 12 Jacobi sweeps "
             "at rate about 0.85) vs FD of the converged equilibrium. The fixed variants tape 250 / 200 sweeps; the "
             "look-alikes tape a count derived from the rate (c12) or sweep to tolerance (c13).")
lines.append("- `retain_grad` (b10, b11): as measured here (Warp 1.19), a kernel store or a recorded `wp.copy` "
             "consumes (zeroes) the destination gradient during backward, so an earlier writer of an overwritten "
             "element gets nothing; with `retain_grad=True` the gradient is kept and the earlier writer is credited "
             "too. In b11 the copy source (`self.res`) has `requires_grad=True`, otherwise `wp.copy` is not recorded "
             "at all and the destination gradient would not be consumed either way.")
lines.append("- `component_reassign` (b24): the adjoint of the in-place component assignment `t1[0, 2] = t1[0, 2] * "
             "GROWTH` on a local mat33 built from a parameter is wrong as measured here (Warp 1.19); c24 builds the "
             "scaled component into the matrix constructor.")
lines.append("- `host_mutation` (b17, b18): plain `evaluate`: the gradient returned after `tape.backward()` vs FD of "
             "the loss value the same call computed on the tape (b17: `crowd.assign(...)`; b18: an in-place NumPy "
             "multiply through the CPU view `k_spring.numpy()`).")
lines.append("- every other class: plain `evaluate`, AD vs FD of the program's own objective.\n")
lines.append("Fixed variant: the marked line replaced (or deleted) as in `_verify/fixes.py`, in a copy under "
             "`_verify/_fixed/<program>/`, measured the same way. Several fixes are more than one line at the "
             "marked place: b02 and b03 allocate a fresh array and launch into it; b21 keeps the atomic add and "
             "recomputes the prefix occupancy by a static loop over the earlier cars; b22 adds `tape.zero()` after "
             "`opt.step`. b17 and b18 delete the marked line; b19's fix aliases `params.grad` instead of cloning "
             "it before backward (the momentum kernel then reads the filled gradient).\n")

counts = {}
lines.append(f"## Bug programs ({len(bugs)})\n")
lines.append("| program | class | marked line | description | AD[0] | FD[0] | rel_err | verdict | fix | fixed rel_err | fixed verdict | run s (cold / cached) |")
lines.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
for p in bugs:
    r = res.get(p, {})
    f = fix.get(p, {})
    counts[f.get("cls", "?")] = counts.get(f.get("cls", "?"), 0) + 1
    lines.append(
        f"| `{p}.py` | {f.get('cls', '?')} | `{f.get('marked_file', '?')}:{f.get('marked_line', '?')}` | {DESC.get(p, '')} "
        f"| {first(r.get('ad'))} | {first(r.get('fd'))} | {g(r.get('rel_err'))} | {r.get('verdict')} "
        f"| {f.get('fix', '?').replace('|', chr(92) + '|').replace(chr(10), ' ⏎ ')} | {g(f.get('fixed_rel_err'))} | {f.get('fixed_verdict')} "
        f"| {g(cold.get(p, {}).get('cold_s'))} / {g(r.get('standalone_cached_s'))} |")
lines.append("")
lines.append(f"## Correct look-alikes ({len(goods)})\n")
lines.append("| program | near-miss of | description | AD[0] | FD[0] | rel_err | verdict | run s (cold / cached) |")
lines.append("|---|---|---|---|---|---|---|---|")
for p in goods:
    r = res.get(p, {})
    first_line = open(os.path.join(ROOT, p + ".py")).readline().strip()
    m = re.match(r"# correct: (.*)", first_line)
    lines.append(f"| `{p}.py` | {m.group(1) if m else '?'} | {DESC.get(p, '')} | {first(r.get('ad'))} | "
                 f"{first(r.get('fd'))} | {g(r.get('rel_err'))} | {r.get('verdict')} | "
                 f"{g(cold.get(p, {}).get('cold_s'))} / {g(r.get('standalone_cached_s'))} |")
lines.append("")
lines.append("## Bug classes\n")
lines.append("| class | count | bug programs |")
lines.append("|---|---|---|")
for c in sorted(counts):
    members = ", ".join(f"`{p}`" for p in bugs if fix.get(p, {}).get("cls") == c)
    lines.append(f"| {c} | {counts[c]} | {members} |")
lines.append("")
lines.append("## Helpers\n")
users = helper_users(ROOT)
lines.append("| helper | imported by | holds a marker |")
lines.append("|---|---|---|")
for h in sorted(os.path.basename(x) for x in glob.glob(os.path.join(ROOT, "_*.py"))):
    marked = any("# expect:" in line for line in open(os.path.join(ROOT, h)))
    lines.append(f"| `{h}` | {', '.join('`' + u + '`' for u in sorted(users.get(h, [])))} | {'yes' if marked else 'no'} |")
lines.append("")
ok_b = sum(1 for p in bugs if res.get(p, {}).get("ok"))
ok_c = sum(1 for p in goods if res.get(p, {}).get("ok"))
ok_f = sum(1 for p in bugs if fix.get(p, {}).get("ok"))
lines.append("## Summary\n")
lines.append(f"- bug programs that DIFFER and run standalone (exit 0): {ok_b} / {len(bugs)}")
lines.append(f"- correct programs that MATCH and run standalone (exit 0): {ok_c} / {len(goods)}")
lines.append(f"- fixed variants that MATCH (and run standalone): {ok_f} / {len(bugs)}")
mx = max((res[p].get("standalone_cached_s", 0) for p in progs if p in res), default=0)
lines.append(f"- standalone wall time (`python prog.py`, exit 0): at most {mx:.2f} s with Warp's kernel cache warm")
if cold:
    mx1 = max(v["cold_s"] for v in cold.values())
    bad = [k for k, v in cold.items() if v["rc"] != 0]
    lines.append(f"- with an empty kernel cache (compilation included, `bench/accuracy/_verify/cold_times.py`): at most {mx1:.2f} s; "
                 f"non-zero exits: {bad if bad else 'none'}")
lines.append("")
lines.append("Reproduce: `python bench/accuracy/_verify/verify.py bench/accuracy/set21 && python bench/accuracy/_verify/check_fixes.py bench/accuracy/set21 && "
             "python bench/accuracy/set21/_verify/make_manifest.py` (two programs at a time; kernels are cached under `_verify/_kcache`). "
             "`evaluate` programs are also checked for repeatability: the AD gradient is recomputed after all FD "
             "calls and must agree (largest `repeat_max_abs_diff` in results.json: "
             f"{max((v.get('repeat_max_abs_diff') or 0.0) for v in res.values()):.3g}).")
open(os.path.join(ROOT, "MANIFEST.md"), "w").write("\n".join(lines) + "\n")
print("wrote MANIFEST.md")
