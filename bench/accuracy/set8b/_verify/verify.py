"""Finite-difference check of the gradients the evaluation programs compute.

Usage:  python verify.py prog.py [prog2.py ...] [--tol 0.02] [--json out.json]

Each program defines either
  * PARAMS0 (numpy array) and evaluate(p) -> (loss, grad), or
  * verify() -> (ad, fd).
For the first form the gradient returned by evaluate(PARAMS0) is compared with a
central finite difference of the loss returned by evaluate (step FD_EPS * max(1, |p|),
FD_EPS = 1e-3 unless the program defines FD_EPS).  At most FD_MAX_COMPONENTS
components (12 by default, evenly spread) are differenced.

Every program runs in its own subprocess (its own Warp module state).
"""

import importlib.util
import json
import os
import subprocess
import sys

import numpy as np

PY = sys.executable


def _load(path):
    path = os.path.abspath(path)
    d = os.path.dirname(path)
    if d not in sys.path:
        sys.path.insert(0, d)
    os.chdir(d)
    spec = importlib.util.spec_from_file_location("__evalprog__", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["__evalprog__"] = mod
    spec.loader.exec_module(mod)
    return mod


def check_one(path, tol):
    mod = _load(path)
    if hasattr(mod, "verify"):
        ad, fd = mod.verify()
        ad = np.asarray(ad, dtype=np.float64).ravel()
        fd = np.asarray(fd, dtype=np.float64).ravel()
        idx = np.arange(ad.size)
        loss0 = None
    else:
        p0 = np.array(mod.PARAMS0, dtype=np.float64)
        eps_rel = float(getattr(mod, "FD_EPS", 1e-3))
        maxc = int(getattr(mod, "FD_MAX_COMPONENTS", 12))
        loss0, g = mod.evaluate(p0.copy())
        g = np.asarray(g, dtype=np.float64).reshape(p0.shape).ravel()
        flat = p0.ravel()
        n = flat.size
        idx = np.arange(n) if n <= maxc else np.unique(np.linspace(0, n - 1, maxc).round().astype(int))
        fd = np.zeros(idx.size)
        for k, j in enumerate(idx):
            h = eps_rel * max(1.0, abs(flat[j]))
            pp = flat.copy()
            pp[j] += h
            lp, _ = mod.evaluate(pp.reshape(p0.shape))
            pm = flat.copy()
            pm[j] -= h
            lm, _ = mod.evaluate(pm.reshape(p0.shape))
            fd[k] = (float(lp) - float(lm)) / (2.0 * h)
        ad = g[idx]
    finite_ad = bool(np.all(np.isfinite(ad)))
    finite_fd = bool(np.all(np.isfinite(fd)))
    scale = max(np.linalg.norm(fd), 1e-6)
    if finite_ad and finite_fd:
        rel = float(np.linalg.norm(ad - fd) / scale)
    else:
        rel = float("nan")
    ok = finite_ad and finite_fd and rel < tol
    return {
        "path": path,
        "loss": None if loss0 is None else float(loss0),
        "components": [int(i) for i in idx],
        "ad": [float(x) for x in ad],
        "fd": [float(x) for x in fd],
        "rel_err": rel,
        "finite_ad": finite_ad,
        "finite_fd": finite_fd,
        "verdict": "MATCH" if ok else "DIFFER",
    }


def main():
    args = sys.argv[1:]
    tol = 2e-2
    out_json = None
    if "--one" in args:
        i = args.index("--one")
        path = args[i + 1]
        if "--tol" in args:
            tol = float(args[args.index("--tol") + 1])
        import io
        import contextlib

        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            res = check_one(path, tol)
        print("@@RESULT@@" + json.dumps(res))
        return
    progs = []
    it = iter(args)
    for a in it:
        if a == "--tol":
            tol = float(next(it))
        elif a == "--json":
            out_json = next(it)
        else:
            progs.append(a)
    results = []
    here = os.path.abspath(__file__)
    for p in progs:
        proc = subprocess.run(
            [PY, here, "--one", os.path.abspath(p), "--tol", str(tol)], capture_output=True, text=True
        )
        line = [l for l in proc.stdout.splitlines() if l.startswith("@@RESULT@@")]
        if proc.returncode != 0 or not line:
            print(f"{os.path.basename(p):40s} ERROR rc={proc.returncode}\n{proc.stderr[-2000:]}")
            results.append({"path": p, "verdict": "ERROR"})
            continue
        r = json.loads(line[0][len("@@RESULT@@"):])
        results.append(r)
        np.set_printoptions(precision=5, suppress=False, linewidth=200)
        ad = np.array(r["ad"][:4])
        fd = np.array(r["fd"][:4])
        print(f"{os.path.basename(p):40s} rel_err={r['rel_err']:.3e}  {r['verdict']:6s} AD={ad} FD={fd}")
        sys.stdout.flush()
    if out_json:
        with open(out_json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
