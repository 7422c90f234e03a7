"""Measure ground truth for every program of the set.

For each bNN_*.py / cNN_*.py in the set folder, run _runner.py in a fresh
process (sequentially), compare the program's AD gradient with central finite
differences (rel_err = |ad - fd| / |fd|, 2-norms; MATCH below 1e-2; NaN AD
where FD is finite is DIFFER), and write _verify/results.json.

usage: python _verify/verify.py [--root DIR] [--out FILE] [name-prefix ...]
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SET = os.path.dirname(HERE)
PY = sys.executable


def expected_of(path, folder):
    """Return ('bug', cls, file, line) or ('correct', description, None, None)."""
    with open(path) as f:
        src = f.read()
    first = src.splitlines()[0] if src else ""
    if first.startswith("# correct:"):
        return {"kind": "correct", "desc": first[len("# correct:"):].strip()}
    # find marker in the program or in a helper it imports
    files = [path] + sorted(glob.glob(os.path.join(folder, "_*.py")))
    imported = set(re.findall(r"^\s*(?:import|from)\s+(_\w+)", src, re.M))
    hits = []
    for fpath in files:
        base = os.path.splitext(os.path.basename(fpath))[0]
        if fpath != path and base not in imported:
            continue
        with open(fpath) as f:
            for ln, line in enumerate(f, 1):
                m = re.search(r"#\s*expect:\s*(\w+)\s*$", line)
                if m:
                    hits.append((os.path.basename(fpath), ln, m.group(1)))
    if len(hits) != 1:
        return {"kind": "bug", "error": f"expected exactly one marker, found {hits}"}
    fname, ln, cls = hits[0]
    return {"kind": "bug", "cls": cls, "file": fname, "line": ln}


def run_one(prog, timeout=300):
    out = os.path.join(os.path.dirname(prog), "." + os.path.basename(prog) + ".result.json")
    t0 = time.time()
    try:
        p = subprocess.run([PY, os.path.join(HERE, "_runner.py"), prog, out],
                           capture_output=True, text=True, timeout=timeout)
        if not os.path.exists(out):
            return {"verdict": "ERROR", "error": (p.stdout + p.stderr)[-3000:]}
        with open(out) as f:
            res = json.load(f)
        os.remove(out)
    except subprocess.TimeoutExpired:
        res = {"verdict": "ERROR", "error": "timeout"}
    res["wall"] = round(time.time() - t0, 1)
    return res


def fmt(v):
    return f"{v:.3e}" if isinstance(v, float) else str(v)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=SET)
    ap.add_argument("--out", default=os.path.join(HERE, "results.json"))
    ap.add_argument("only", nargs="*")
    a = ap.parse_args()
    progs = sorted(glob.glob(os.path.join(a.root, "b[0-9][0-9]_*.py")) + glob.glob(os.path.join(a.root, "c[0-9][0-9]_*.py")))
    if a.only:
        progs = [p for p in progs if any(os.path.basename(p).startswith(o) for o in a.only)]
    results = {}
    if os.path.exists(a.out) and a.only:
        with open(a.out) as f:
            results = json.load(f)
    for prog in progs:
        name = os.path.splitext(os.path.basename(prog))[0]
        exp = expected_of(prog, a.root)
        res = run_one(prog)
        res["expected"] = exp
        want = "DIFFER" if exp["kind"] == "bug" else "MATCH"
        res["ok"] = res.get("verdict") == want
        results[name] = res
        print(f"{name:45s} {exp.get('cls', 'correct'):18s} {res.get('verdict'):7s} rel_err={fmt(res.get('rel_err')):>10s} "
              f"{'ok' if res['ok'] else 'WRONG'}  ({res['wall']}s)", flush=True)
        if res.get("verdict") == "ERROR":
            print(res.get("error", "")[-1500:])
    with open(a.out, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
    bad = [k for k, v in results.items() if not v["ok"]]
    print(f"\n{len(results)} programs, {len(bad)} not as expected: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
