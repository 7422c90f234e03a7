"""Compare the gradient a program's tape computes with central finite differences.

usage:
    python _verify/verify.py prog.py [prog.py ...]          # programs as written
    python _verify/verify.py --fixed b05_x.py [...]        # bug programs with their marked line fixed
    python _verify/verify.py --json ...                     # one JSON object per program

A program provides either
    PARAMS0 (numpy array) and evaluate(p) -> (loss, grad)
or
    verify() -> (ad, fd)        (for optimisation-loop bugs: the gradient the program
                                 consumes at some iteration, and FD of the objective there).
Optional module attributes: FD_EPS (absolute step, scalar or array; default 1e-3 relative),
FD_TOL (default 1e-2).

Each program runs in its own subprocess (helper modules beside it are importable).
"""

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SET_DIR = os.path.dirname(HERE)
PY = sys.executable


def _fd(evaluate, p0, eps):
    p0 = np.asarray(p0, dtype=np.float64)
    g = np.zeros_like(p0)
    flat = p0.reshape(-1)
    for i in range(flat.size):
        h = eps[i]
        pp = flat.copy()
        pm = flat.copy()
        pp[i] += h
        pm[i] -= h
        lp, _ = evaluate(pp.reshape(p0.shape))
        lm, _ = evaluate(pm.reshape(p0.shape))
        g.reshape(-1)[i] = (float(lp) - float(lm)) / (2.0 * h)
    return g


def run_single(path):
    path = os.path.abspath(path)
    d = os.path.dirname(path)
    sys.path.insert(0, d)
    os.chdir(d)
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)

    tol = float(getattr(mod, "FD_TOL", 1e-2))
    if hasattr(mod, "verify"):
        ad, fd = mod.verify()
        ad = np.asarray(ad, dtype=np.float64).reshape(-1)
        fd = np.asarray(fd, dtype=np.float64).reshape(-1)
        loss = None
    else:
        p0 = np.asarray(mod.PARAMS0, dtype=np.float64)
        loss, ad = mod.evaluate(p0.copy())
        ad = np.asarray(ad, dtype=np.float64).reshape(-1)
        n = p0.size
        eps = getattr(mod, "FD_EPS", None)
        if eps is None:
            eps = 1e-3 * np.maximum(np.abs(p0.reshape(-1)), 1.0)
        else:
            eps = np.broadcast_to(np.asarray(eps, dtype=np.float64), (n,)).copy()
        fd = _fd(mod.evaluate, p0, eps).reshape(-1)
        loss = float(loss)

    finite_ad = bool(np.all(np.isfinite(ad)))
    finite_fd = bool(np.all(np.isfinite(fd)))
    if finite_ad and finite_fd:
        rel = float(np.linalg.norm(ad - fd) / max(np.linalg.norm(fd), 1e-12))
        verdict = "MATCH" if rel < tol else "DIFFER"
    elif finite_fd and not finite_ad:
        rel = float("nan")
        verdict = "DIFFER"  # non-finite AD where FD is finite
    else:
        rel = float("nan")
        verdict = "FD-NONFINITE"
    return {
        "program": os.path.basename(path),
        "loss": loss,
        "ad": [float(v) for v in ad],
        "fd": [float(v) for v in fd],
        "rel_err": rel,
        "verdict": verdict,
    }


def make_fixed_copy(prog):
    sys.path.insert(0, HERE)
    from fixes import FIXES

    base = os.path.basename(prog)
    if base not in FIXES:
        raise SystemExit(f"no fix recorded for {base}")
    tmp = tempfile.mkdtemp(prefix="set8a_fixed_")
    for f in os.listdir(SET_DIR):
        if f.endswith(".py"):
            shutil.copy(os.path.join(SET_DIR, f), tmp)
    for fname, old, new in FIXES[base]:
        p = os.path.join(tmp, fname)
        src = open(p).read()
        if src.count(old) != 1:
            raise SystemExit(f"fix for {base}: pattern found {src.count(old)} times in {fname}: {old!r}")
        src = src.replace(old, new)
        open(p, "w").write(src)
    return os.path.join(tmp, base), tmp


def main():
    args = sys.argv[1:]
    if args and args[0] == "--single":
        res = run_single(args[1])
        print("@@RESULT@@" + json.dumps(res))
        return
    as_json = "--json" in args
    fixed = "--fixed" in args
    progs = [a for a in args if not a.startswith("--")]
    worst = 0
    for prog in progs:
        tmp = None
        target = os.path.abspath(prog)
        if fixed:
            target, tmp = make_fixed_copy(prog)
        try:
            out = subprocess.run([PY, os.path.abspath(__file__), "--single", target],
                                 capture_output=True, text=True, timeout=300)
        finally:
            if tmp:
                shutil.rmtree(tmp, ignore_errors=True)
        line = [l for l in out.stdout.splitlines() if l.startswith("@@RESULT@@")]
        if not line:
            print(f"{os.path.basename(prog)}: ERROR rc={out.returncode}\n{out.stderr[-3000:]}")
            worst = 2
            continue
        res = json.loads(line[0][len("@@RESULT@@"):])
        if fixed:
            res["program"] += " (fixed)"
        if as_json:
            print(json.dumps(res))
        else:
            k = min(4, len(res["ad"]))
            ad = ", ".join(f"{v:.6g}" for v in res["ad"][:k])
            fd = ", ".join(f"{v:.6g}" for v in res["fd"][:k])
            print(f"{res['program']:<38} rel_err={res['rel_err']:.3e}  {res['verdict']:<7} AD=[{ad}]  FD=[{fd}]")
        sys.stdout.flush()
    sys.exit(worst)


if __name__ == "__main__":
    main()
