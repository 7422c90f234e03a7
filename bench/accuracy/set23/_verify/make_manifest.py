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
lines.append("# Set 23: asphalt paving, tea steeping, mushroom farming, car suspension, maple syrup, LED droop, tablet dissolution, ice cream, gas pipelines, swimming pools, data-centre racks, HVAC ducts, metro platforms, pendulum clocks, 3-D printers, laundry drying, libraries, golf, violin strings, dental enamel, conveyor sushi, heat shields, lighthouses and gymnastics vaults — planted Warp gradient bugs and correct look-alikes\n")
lines.append("All numbers below are copied by `_verify/make_manifest.py` from `_verify/results.json` "
             "(written by the shared `bench/accuracy/_verify/verify.py`) and `_verify/fix_results.json` (written by "
             "the shared `check_fixes.py`); nothing is typed in by hand. Cold (empty kernel cache) times were not "
             "measured for this set (`cold_times.py` skipped), so that column shows `-`.\n")
lines.append("Ground truth: Warp AD gradient vs central finite differences of the quantity the program reports "
             "(`rel_err = |ad - fd| / |fd|`, 2-norms; MATCH below 1e-2; NaN AD with finite FD is DIFFER). "
             "Programs expose `PARAMS0` + `evaluate(p) -> (loss, grad)` (the driver differences `loss` "
             "with step `FD_EPS`, default 1e-3) or `verify() -> (ad, fd)`. Warp 1.19.0, CPU, float32 kernels "
             "(b07, b08, b09 and c07, c08, c09: the reported loss is computed in float64 NumPy on the host; "
             "b13/c13: the reported loss and its seed use the float64 `np.linalg.solve` equilibrium).\n")
lines.append("What is measured, by class:\n")
lines.append("- `grad_read` (b18, b19 and c18, c19) and `missing_zero` (b22 and c22): `verify()` runs the program's own "
             "optimisation loop for 3 iterations and compares the gradient the update actually consumed at the last "
             "iteration (recorded by the loop right before its update) with central FD of the objective at that "
             "iterate. b18 consumes an all-zero clone taken before `tape.backward()`; b19 a gradient zeroed by "
             "`tape.zero()` before `opt.step`; b22 an accumulated one.")
lines.append("- `fixed_point` (b12, b13 and c12, c13): b12 warm-starts 15 taped Jacobi sweeps (rate 0.9) from the "
             "converged host solution, so the loss on the tape is the converged one while the gradient is that of the "
             "truncated map; b13 tapes 12 cold-started iterations (rate 0.88) and reports (and seeds) the converged "
             "`np.linalg.solve` loads. The fixed variants tape 250 / 200 iterations; the look-alikes tape a count "
             "derived from the rate (c12) or iterate to a 1e-3 tolerance (c13).")
lines.append("- `retain_grad` (b10, b11): as measured here (Warp 1.19), a kernel store or a recorded `wp.copy` "
             "consumes the destination gradient during backward, so the earlier writer of an overwritten array gets "
             "only the gradient of the reads made before the overwrite; with `retain_grad=True` it is credited with "
             "the later reads too. The reads are linear (test kit gain / probe) so nothing else depends on the "
             "overwritten values; c11 keeps b11's launch + `wp.copy` sequence and only drops `retain_grad`.")
lines.append("- `component_reassign` (b24): the adjoint of `pos[0] = pos[0] + ...` on a local vec3 whose x component "
             "already depends on the parameters is wrong as measured here (Warp 1.19).")
lines.append("- `atomic_replay` (b21): the AD gradient is NaN (the return value of `wp.atomic_add` feeds the "
             "staleness), FD finite (CPU runs the threads in order): DIFFER.")
lines.append("- `record_cmd` (b15): the replayed command is not on the tape; AD gradient all zero.")
lines.append("- `host_mutation` (b16, b17): plain `evaluate`: the gradient returned after `tape.backward()` vs FD of "
             "the loss value the same call computed on the tape (b16: `humid.assign(...)`; b17: an in-place add "
             "through the CPU view `self.hours.numpy()`).")
lines.append("- every other class: plain `evaluate`, AD vs FD of the program's own objective.\n")
lines.append("Fixed variant: the marked line replaced (or deleted) as in `_verify/fixes.py`, in a copy under "
             "`_verify/_fixed/<program>/`, measured the same way. Several fixes are more than one line at the "
             "marked place: b02 rebinds self.temp to a fresh array and launches into it; b21 keeps the atomic add "
             "and sums the earlier plates in a static loop; b22 adds `tape.zero()` after `opt.step`. b16, b17 and "
             "b19 delete the marked line; b18's fix aliases `params.grad` instead of cloning it before backward; "
             "b01's fix rebinds `lay = lay_second` instead of copying; b03's allocates a new array; b20's keeps the "
             "first store and overwrites it with the full product.\n")

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
    lines.append(f"- with an empty kernel cache (compilation included, `_verify/cold_times.py`): at most {mx1:.2f} s; "
                 f"non-zero exits: {bad if bad else 'none'}")
lines.append("")
lines.append("Reproduce, from the repository root: `python bench/accuracy/_verify/verify.py bench/accuracy/set23 -j 1 && "
             "python bench/accuracy/_verify/check_fixes.py bench/accuracy/set23 -j 1 && "
             "python bench/accuracy/set23/_verify/make_manifest.py` (kernels are cached under `_verify/_kcache`). "
             "`evaluate` programs are also checked for repeatability: the AD gradient is recomputed after all FD "
             "calls and must agree (largest `repeat_max_abs_diff` in results.json: "
             f"{max((v.get('repeat_max_abs_diff') or 0.0) for v in res.values()):.3g}).")
open(os.path.join(ROOT, "MANIFEST.md"), "w").write("\n".join(lines) + "\n")
print("wrote MANIFEST.md")
