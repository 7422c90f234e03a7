"""Run every ground-truth check (float64 AD vs central FD, plus the fixed variant
for bug programs), run every program as-is (float32, `python NAME.py`), locate the
`# expect:` markers, and regenerate ../MANIFEST.md.

Usage: python run_all.py [--no-programs] [--only NAME ...]
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SET4 = os.path.dirname(HERE)
PY = sys.executable

from _notes import NOTES  # noqa: E402
from _what import WHAT  # noqa: E402


def programs():
    return sorted(f[:-3] for f in os.listdir(SET4) if f.endswith(".py") and not f.startswith("_"))


def markers(name):
    """(class, 'file:line') of the # expect: marker in the program or a helper it imports."""
    src = open(os.path.join(SET4, name + ".py")).read()
    files = [name + ".py"]
    for h in sorted(f for f in os.listdir(SET4) if f.startswith("_") and f.endswith(".py")):
        if re.search(r"\b%s\b" % re.escape(h[:-3]), src):
            files.append(h)
    found = []
    for f in files:
        for ln, line in enumerate(open(os.path.join(SET4, f)), 1):
            m = re.search(r"# expect: (\w+)\s*$", line)
            if m:
                found.append((m.group(1), f"{f}:{ln}"))
    first = src.splitlines()[0]
    correct = first.startswith("# correct:")
    return correct, found


def main():
    args = sys.argv[1:]
    run_programs = "--no-programs" not in args
    only = args[args.index("--only") + 1:] if "--only" in args else None
    names = [n for n in programs() if only is None or n in only]
    rows = []
    failures = []
    for name in names:
        correct, found = markers(name)
        if correct and found:
            failures.append(f"{name}: correct program with marker {found}")
        if not correct and len(found) != 1:
            failures.append(f"{name}: expected exactly one marker, found {found}")
        chk = os.path.join(HERE, f"check_{name}.py")
        r = subprocess.run([PY, chk], cwd=HERE, capture_output=True, text=True)
        res_path = os.path.join(HERE, "_results", name + ".json")
        if r.returncode != 0 or not os.path.exists(res_path):
            failures.append(f"{name}: check failed rc={r.returncode}\n{r.stdout[-800:]}{r.stderr[-1500:]}")
        if os.path.exists(res_path):
            res = json.load(open(res_path))
        else:
            res = {"ad": "?", "fd": "?", "rel_err": float("nan")}
        if run_programs:
            p = subprocess.run([PY, name + ".py"], cwd=SET4, capture_output=True, text=True, timeout=300)
            if p.returncode != 0:
                failures.append(f"{name}: program exited {p.returncode}\n{p.stderr[-800:]}")
        cls = "correct" if correct else (found[0][0] if found else "?")
        marker = "-" if correct else (found[0][1] if found else "?")
        fixed = "n/a" if correct else ("yes (rel_err %.1e)" % res["fixed_rel_err"] if res.get("fixed_rel_err", 1) < 1e-3 else "NO")
        rows.append((name + ".py", cls, marker, WHAT.get(name, ""), res["ad"], res["fd"], res["rel_err"], fixed, res.get("note", "")))
        print(f"{'ok ' if res.get('ok') else 'BAD'} {name:32s} {cls:18s} rel_err={res['rel_err']:.3g}", flush=True)

    if only is None:
        with open(os.path.join(SET4, "MANIFEST.md"), "w") as f:
            f.write("# set4 manifest\n\n")
            f.write("Ground truth from `_verify/run_all.py`: every program is re-run in float64 "
                    "(types rewritten, float literals typed float64) and its AD gradient compared with "
                    "central finite differences of the same float64 forward (eps 1e-6 unless noted in the check). "
                    "For bug programs the marked line is changed (see `FIX` in each `_verify/check_<name>.py`) "
                    "and the fixed variant is compared with FD again. rel_err = max|AD-FD| / max|FD| (inf if AD is non-finite).\n\n")
            f.write("| file | class | marker (file:line) | what | AD (first few) | FD | rel_err | fixed-variant matches FD |\n")
            f.write("|---|---|---|---|---|---|---|---|\n")
            for row in rows:
                name, cls, marker, what, ad, fdv, err, fixed, note = row
                if note:
                    what = f"{what} ({note})"
                f.write(f"| {name} | {cls} | {marker} | {what} | {ad} | {fdv} | {err:.3g} | {fixed} |\n")
            f.write(NOTES)
    if failures:
        print("\nFAILURES:\n" + "\n".join(failures))
        sys.exit(1)
    print(f"\nall {len(names)} programs verified")


if __name__ == "__main__":
    main()
