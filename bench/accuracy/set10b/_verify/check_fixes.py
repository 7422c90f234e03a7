"""Apply each fix from fixes.py at the marked line, in a copy under
_verify/_fixed/<program>/, and measure the fixed variant with the same
runner as verify.py.  Every fixed variant must MATCH.

usage: python _verify/check_fixes.py [name-prefix ...]
"""
import glob
import json
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SET = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from fixes import FIXES  # noqa: E402
from verify import run_one  # noqa: E402

MARK = re.compile(r"#\s*expect:\s*\w+\s*$")


def apply_fix(name, fix):
    dst = os.path.join(HERE, "_fixed", name)
    if os.path.isdir(dst):
        shutil.rmtree(dst)
    os.makedirs(dst)
    src_prog = os.path.join(SET, name + ".py")
    shutil.copy(src_prog, dst)
    with open(src_prog) as f:
        imported = set(re.findall(r"^\s*(?:import|from)\s+(_\w+)", f.read(), re.M))
    for mod in imported:  # only the helpers this program imports
        shutil.copy(os.path.join(SET, mod + ".py"), dst)
    path = os.path.join(dst, fix["file"])
    with open(path) as f:
        lines = f.read().split("\n")
    marked = [i for i, l in enumerate(lines) if MARK.search(l)]
    if len(marked) != 1:
        raise RuntimeError(f"{name}: {len(marked)} marker lines in {fix['file']}")
    i = marked[0]
    line = lines[i]
    if fix["old"] not in line:
        raise RuntimeError(f"{name}: marked line {i + 1} does not contain {fix['old']!r}: {line!r}")
    indent = line[: len(line) - len(line.lstrip())]
    if fix["new"] is None:
        new_lines = []
    else:
        new_lines = [indent + l for l in fix["new"].split("\n")]
    lines[i:i + 1] = new_lines
    with open(path, "w") as f:
        f.write("\n".join(lines))
    return os.path.join(dst, name + ".py"), i + 1, line.strip(), "\n".join(l.strip() for l in new_lines) or "(line deleted)"


def fmt(v):
    return f"{v:.3e}" if isinstance(v, float) else str(v)


def main():
    only = sys.argv[1:]
    out = os.path.join(HERE, "fix_results.json")
    results = {}
    if only and os.path.exists(out):
        with open(out) as f:
            results = json.load(f)
    if not only and os.path.isdir(os.path.join(HERE, "_fixed")):
        shutil.rmtree(os.path.join(HERE, "_fixed"))
    bugs = sorted(os.path.splitext(os.path.basename(p))[0] for p in glob.glob(os.path.join(SET, "b[0-9][0-9]_*.py")))
    missing = [b for b in bugs if b not in FIXES]
    for name in bugs:
        if only and not any(name.startswith(o) for o in only):
            continue
        if name not in FIXES:
            continue
        prog, ln, old, new = apply_fix(name, FIXES[name])
        res = run_one(prog)
        res.update(fix_file=FIXES[name]["file"], fix_line=ln, fix_old=old, fix_new=new)
        res["ok"] = res.get("verdict") == "MATCH"
        results[name] = res
        print(f"{name:45s} fixed -> {res.get('verdict'):7s} rel_err={fmt(res.get('rel_err')):>10s} "
              f"{'ok' if res['ok'] else 'WRONG'}  ({res['wall']}s)", flush=True)
        if res.get("verdict") == "ERROR":
            print(res.get("error", "")[-1500:])
    with open(out, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    bad = [k for k, v in results.items() if not v["ok"]]
    print(f"\n{len(results)} fixed variants, {len(bad)} not MATCH: {bad}; bugs without a fix entry: {missing}")
    return 1 if (bad or missing) else 0


if __name__ == "__main__":
    sys.exit(main())
