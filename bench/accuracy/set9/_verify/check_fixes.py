"""For every bug program: check there is exactly one `# expect:` marker (program + helper modules it imports),
copy the set into a scratch folder, apply the fix from fixes.py to the marked line, and run verify.py there.

usage: python _verify/check_fixes.py [b01_x.py ...] [--json out.json]
"""

import argparse
import ast
import glob
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from fixes import FIXES  # noqa: E402

MARK = re.compile(r"#\s*expect:\s*([a-z_]+)\s*$")


def local_imports(path, seen=None):
    """The program and the helper modules (files next to it) it imports, transitively."""
    seen = seen if seen is not None else []
    if path in seen:
        return seen
    seen.append(path)
    tree = ast.parse(open(path).read())
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        for n in names:
            cand = os.path.join(os.path.dirname(path), n.split(".")[0] + ".py")
            if os.path.exists(cand):
                local_imports(cand, seen)
    return seen


def markers(prog_path):
    found = []
    for f in local_imports(prog_path):
        for no, line in enumerate(open(f).read().splitlines(), 1):
            m = MARK.search(line)
            if m:
                found.append((os.path.basename(f), no, m.group(1), line))
    return found


def apply_fix(folder, fix):
    path = os.path.join(folder, fix["file"])
    lines = open(path).read().splitlines()
    idx = [k for k, l in enumerate(lines) if MARK.search(l)]
    assert len(idx) == 1, (path, idx)
    k = idx[0]
    if fix["op"] == "replace":
        lines[k] = fix["new"]
    elif fix["op"] == "delete":
        del lines[k]
    elif fix["op"] == "move_after":
        moved = MARK.sub("", lines[k]).rstrip()
        del lines[k]
        a = lines.index(fix["anchor"])
        lines.insert(a + 1, moved)
    open(path, "w").write("\n".join(lines) + "\n")
    return k + 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("programs", nargs="*")
    ap.add_argument("--json")
    args = ap.parse_args()
    progs = args.programs or sorted(os.path.basename(p) for p in glob.glob(os.path.join(ROOT, "b[0-9][0-9]_*.py")))
    out = []
    for prog in progs:
        prog = os.path.basename(prog)
        marks = markers(os.path.join(ROOT, prog))
        rec = {"program": prog, "markers": [(m[0], m[1], m[2]) for m in marks]}
        if len(marks) != 1:
            rec["error"] = f"{len(marks)} markers"
            out.append(rec)
            print(prog, "MARKER ERROR", marks)
            continue
        folder = os.path.join(HERE, "_fixed", prog[:-3])
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        for f in glob.glob(os.path.join(ROOT, "_*.py")) + [os.path.join(ROOT, prog)]:
            shutil.copy(f, folder)
        fix = FIXES[prog]
        assert fix["file"] == marks[0][0], (prog, fix["file"], marks[0][0])
        apply_fix(folder, fix)
        res = subprocess.run([sys.executable, os.path.join(HERE, "verify.py"), "--root", folder, prog],
                             capture_output=True, text=True, timeout=600)
        line = res.stdout.strip().splitlines()[-1] if res.stdout.strip() else res.stderr[-300:]
        rec["fixed"] = line
        m = re.search(r"\s(MATCH|DIFFER|ERROR|TIMEOUT|FD-NONFINITE)\s+rel_err=(\S+)", line)
        rec["fixed_status"] = m.group(1) if m else "?"
        rec["fixed_rel_err"] = m.group(2) if m else "?"
        out.append(rec)
        print(f"{prog:<34} marker {marks[0][0]}:{marks[0][1]} ({marks[0][2]})  fixed -> {rec['fixed_status']} rel_err={rec['fixed_rel_err']}", flush=True)
    if args.json:
        json.dump(out, open(args.json, "w"), indent=1)


if __name__ == "__main__":
    main()
