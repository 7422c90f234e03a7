"""Run one program's gradient check in isolation and write a JSON result.

usage: python _runner.py PROGRAM.py OUT.json

The program is imported (not run as __main__) from its own folder.  If it
defines verify() -> (ad, fd), that pair is used as is; otherwise the program
must define PARAMS0 and evaluate(p) -> (loss, grad), and this runner takes
central finite differences of evaluate's loss around PARAMS0 (step FD_EPS
if the program defines it, else 1e-3) and compares them with grad.
"""
import importlib.util
import json
import math
import os
import sys
import time
import traceback

import numpy as np


def rel_err(ad, fd):
    ad = np.asarray(ad, dtype=np.float64).ravel()
    fd = np.asarray(fd, dtype=np.float64).ravel()
    if ad.shape != fd.shape:
        return float("inf")
    if not np.all(np.isfinite(ad)):
        return float("nan")
    nfd = np.linalg.norm(fd)
    if nfd == 0.0:
        return 0.0 if np.linalg.norm(ad) == 0.0 else float("inf")
    return float(np.linalg.norm(ad - fd) / nfd)


def main():
    prog, out_path = sys.argv[1], sys.argv[2]
    prog = os.path.abspath(prog)
    folder = os.path.dirname(prog)
    os.chdir(folder)
    sys.path.insert(0, folder)
    name = os.path.splitext(os.path.basename(prog))[0]
    res = {"program": name, "mode": None}
    t0 = time.time()
    try:
        spec = importlib.util.spec_from_file_location(name, prog)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        if hasattr(mod, "verify"):
            res["mode"] = "verify"
            ad, fd = mod.verify()
        else:
            res["mode"] = "evaluate"
            p0 = np.array(mod.PARAMS0, dtype=np.float64).ravel()
            h = float(getattr(mod, "FD_EPS", 1e-3))
            loss, ad = mod.evaluate(p0.copy())
            res["loss"] = float(loss)
            fd = np.zeros_like(p0)
            for i in range(p0.size):
                e = np.zeros_like(p0)
                e[i] = h
                lp, _ = mod.evaluate(p0 + e)
                lm, _ = mod.evaluate(p0 - e)
                fd[i] = (float(lp) - float(lm)) / (2.0 * h)
            res["fd_eps"] = h
        ad = np.asarray(ad, dtype=np.float64).ravel()
        fd = np.asarray(fd, dtype=np.float64).ravel()
        r = rel_err(ad, fd)
        res["n"] = int(ad.size)
        res["ad"] = [float(v) if math.isfinite(v) else str(v) for v in ad[:8]]
        res["fd"] = [float(v) for v in fd[:8]]
        res["ad_norm"] = float(np.linalg.norm(ad)) if np.all(np.isfinite(ad)) else "nan"
        res["fd_norm"] = float(np.linalg.norm(fd))
        res["ad_nonfinite"] = int(np.sum(~np.isfinite(ad)))
        res["fd_finite"] = bool(np.all(np.isfinite(fd)))
        res["rel_err"] = r if math.isfinite(r) else str(r)
        res["verdict"] = "MATCH" if (math.isfinite(r) and r < 1e-2) else "DIFFER"
    except Exception:
        res["verdict"] = "ERROR"
        res["error"] = traceback.format_exc()[-3000:]
    res["seconds"] = round(time.time() - t0, 2)
    with open(out_path, "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
