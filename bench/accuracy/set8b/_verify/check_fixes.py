"""Apply the fix of each bug program in a scratch copy and re-run the FD check.

Usage: python check_fixes.py [prog ...]   (default: every program in FIXES)

FIXES maps a bug program to a list of (file, old, new) text replacements; the
first replacement must touch the line that carries the ``# expect:`` marker.
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from fixes import FIXES  # noqa: E402

PY = sys.executable


def main():
    names = sys.argv[1:] or sorted(FIXES)
    out = {}
    if os.path.exists(os.path.join(HERE, "fix_results.json")):
        out = json.load(open(os.path.join(HERE, "fix_results.json")))
    for name in names:
        dst = os.path.join(ROOT, "_scratch", "fix", name.replace(".py", ""))
        if os.path.exists(dst):
            shutil.rmtree(dst)
        os.makedirs(dst)
        for f in os.listdir(ROOT):
            if f.endswith(".py"):
                shutil.copy(os.path.join(ROOT, f), dst)
        for i, (fname, old, new) in enumerate(FIXES[name]):
            path = os.path.join(dst, fname)
            s = open(path).read()
            assert s.count(old) == 1, (name, fname, old, s.count(old))
            if i == 0:
                assert "# expect:" in old and "# expect:" not in new, (name, "first replacement must change the marked line")
            s = s.replace(old, new)
            open(path, "w").write(s)
        proc = subprocess.run([PY, os.path.join(HERE, "verify.py"), "--json", os.path.join(dst, "res.json"),
                               os.path.join(dst, name)], capture_output=True, text=True)
        print(proc.stdout.strip() or proc.stderr[-2000:])
        try:
            out[name] = json.load(open(os.path.join(dst, "res.json")))[0]
        except Exception:
            out[name] = {"verdict": "ERROR"}
    json.dump(out, open(os.path.join(HERE, "fix_results.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
