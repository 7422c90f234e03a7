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
lines.append("# Set 13a: molecular dynamics and computational chemistry — planted Warp gradient bugs and correct look-alikes\n")
lines.append("All numbers below are copied by `_verify/make_manifest.py` from `_verify/results.json` "
             "(written by `bench/accuracy/_verify/verify.py`) and `_verify/fix_results.json` (written by "
             "`bench/accuracy/_verify/check_fixes.py`); nothing is typed in by hand.\n")
lines.append("Ground truth: Warp AD gradient vs central finite differences of the program's own objective "
             "(`rel_err = |ad - fd| / |fd|`, 2-norms; MATCH below 1e-2; NaN AD with finite FD is DIFFER). "
             "Programs expose `PARAMS0` + `evaluate(p) -> (loss, grad)` (the driver differences `loss` "
             "with step `FD_EPS`) or `verify() -> (ad, fd)` (the gradient a training loop actually consumed "
             "vs FD of the objective at that iterate). Warp 1.19.0, CPU.\n")
lines.append("Fixed variant: the marked line replaced (or deleted) as in `_verify/fixes.py`, in a copy under "
             "`_verify/_fixed/<program>/`, measured the same way.\n")

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
        f"| {f.get('fix', '?').replace('|', chr(92) + '|')} | {g(f.get('fixed_rel_err'))} | {f.get('fixed_verdict')} "
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
lines.append("Reproduce: `python bench/accuracy/_verify/verify.py bench/accuracy/set13a && python bench/accuracy/_verify/check_fixes.py bench/accuracy/set13a && python bench/accuracy/_verify/cold_times.py bench/accuracy/set13a && "
             "python bench/accuracy/set13a/_verify/make_manifest.py` (sequential; kernels are cached under `_verify/_kcache`). "
             "`evaluate` programs are also checked for repeatability: the AD gradient is recomputed after all FD "
             "calls and must agree (largest `repeat_max_abs_diff` in results.json: "
             f"{max((v.get('repeat_max_abs_diff') or 0.0) for v in res.values()):.3g}).")
open(os.path.join(ROOT, "MANIFEST.md"), "w").write("\n".join(lines) + "\n")
print("wrote MANIFEST.md")
