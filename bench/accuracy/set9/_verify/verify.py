"""Compare each program's autodiff gradient with central finite differences.

A program exposes either
  PARAMS0 (numpy array) and evaluate(p) -> (loss, grad)   -- FD is taken here, or
  verify() -> (ad, fd)                                     -- the program takes FD itself
Optional module attributes: FD_EPS (step, default 1e-3), FD_TOL (MATCH threshold on rel_err, default 1e-2).

usage:
  python _verify/verify.py                       # every b*.py / c*.py in the set folder
  python _verify/verify.py b01_x.py c03_y.py     # some of them
  python _verify/verify.py --root DIR ...        # programs live in DIR (used for fixed copies)
  python _verify/verify.py --one PATH            # internal: one program, in-process, prints a JSON line
"""

import argparse
import glob
import importlib.util
import io
import json
import os
import subprocess
import sys
import time
import contextlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SET_ROOT = os.path.dirname(HERE)
PY = sys.executable


def rel_err(ad, fd):
    ad = np.asarray(ad, dtype=np.float64).ravel()
    fd = np.asarray(fd, dtype=np.float64).ravel()
    if not np.all(np.isfinite(ad)):
        return float("nan")
    return float(np.linalg.norm(ad - fd) / max(np.linalg.norm(fd), 1e-12))


def run_one(path):
    path = os.path.abspath(path)
    sys.path.insert(0, os.path.dirname(path))
    name = os.path.splitext(os.path.basename(path))[0]
    buf = io.StringIO()
    t0 = time.time()
    with contextlib.redirect_stdout(buf):
        spec = importlib.util.spec_from_file_location(name, path)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        eps = float(getattr(mod, "FD_EPS", 1e-3))
        tol = float(getattr(mod, "FD_TOL", 1e-2))
        loss = None
        if hasattr(mod, "verify"):
            ad, fd = mod.verify()
            ad = np.asarray(ad, dtype=np.float64).ravel()
            fd = np.asarray(fd, dtype=np.float64).ravel()
            mode = "verify"
        else:
            p0 = np.asarray(mod.PARAMS0, dtype=np.float64).ravel()
            loss, ad = mod.evaluate(p0.copy())
            ad = np.asarray(ad, dtype=np.float64).ravel()
            fd = np.zeros_like(p0)
            for k in range(p0.size):
                pp = p0.copy()
                pp[k] += eps
                pm = p0.copy()
                pm[k] -= eps
                fd[k] = (float(mod.evaluate(pp)[0]) - float(mod.evaluate(pm)[0])) / (2.0 * eps)
            mode = "evaluate"
    err = rel_err(ad, fd)
    fd_finite = bool(np.all(np.isfinite(fd)))
    if np.isnan(err):
        status = "DIFFER" if fd_finite else "FD-NONFINITE"
    else:
        status = "MATCH" if err < tol else "DIFFER"
    nz = np.abs(fd) > 1e-12
    ratio = float(np.median(ad[nz] / fd[nz])) if np.any(nz) and np.all(np.isfinite(ad)) else float("nan")
    return {
        "program": os.path.basename(path),
        "mode": mode,
        "loss": None if loss is None else float(loss),
        "n": int(ad.size),
        "rel_err": err,
        "tol": tol,
        "status": status,
        "median_ratio": ratio,
        "ad_head": [float(x) for x in ad[:4]],
        "fd_head": [float(x) for x in fd[:4]],
        "nan_in_ad": int(np.sum(~np.isfinite(ad))),
        "seconds": round(time.time() - t0, 2),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("programs", nargs="*")
    ap.add_argument("--root", default=SET_ROOT)
    ap.add_argument("--one")
    ap.add_argument("--json")
    ap.add_argument("--timeout", type=float, default=240.0)
    args = ap.parse_args()

    if args.one:
        res = run_one(args.one)
        print("RESULT " + json.dumps(res))
        return

    progs = args.programs or sorted(
        [os.path.basename(p) for p in glob.glob(os.path.join(args.root, "[bc][0-9][0-9]_*.py"))]
    )
    results = []
    for prog in progs:
        path = os.path.abspath(prog if os.path.isabs(prog) else os.path.join(args.root, os.path.basename(prog)))
        try:
            out = subprocess.run(
                [PY, os.path.abspath(__file__), "--one", path],
                capture_output=True, text=True, timeout=args.timeout, cwd=os.path.dirname(path),
            )
            line = [l for l in out.stdout.splitlines() if l.startswith("RESULT ")]
            if not line:
                res = {"program": os.path.basename(path), "status": "ERROR", "rel_err": float("nan"),
                       "error": out.stderr.strip().splitlines()[-3:]}
            else:
                res = json.loads(line[-1][len("RESULT "):])
        except subprocess.TimeoutExpired:
            res = {"program": os.path.basename(path), "status": "TIMEOUT", "rel_err": float("nan")}
        results.append(res)
        extra = "" if res["status"] != "ERROR" else "  " + " | ".join(res.get("error", []))
        print(
            f"{res['program']:<36} {res['status']:<12} rel_err={res['rel_err']:.3e} "
            f"ratio={res.get('median_ratio', float('nan')):.4g} "
            f"ad={np.round(res.get('ad_head', []), 5).tolist()} fd={np.round(res.get('fd_head', []), 5).tolist()} "
            f"({res.get('seconds', '?')} s){extra}",
            flush=True,
        )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
