"""Measure one program: Warp AD gradient vs central finite differences.

Usage: python _driver.py path/to/prog.py

The program is imported (its ``__main__`` block does not run) from its own
folder, so that its ``_helper.py`` modules resolve. A program exposes either

* ``PARAMS0`` and ``evaluate(p) -> (loss, grad)``: the driver takes ``grad`` at
  ``PARAMS0`` as the AD gradient and differences ``loss`` centrally with step
  ``FD_EPS`` (module attribute, a scalar or one step per parameter; default 1e-3) in every parameter; or
* ``verify() -> (ad, fd)``: the program measures both itself (used where the
  gradient the program consumes comes out of a loop, e.g. an optimiser).

One line ``@@RESULT@@ {json}`` is printed at the end.
"""
import importlib.util
import json
import math
import os
import sys
import time

import numpy as np

TOL = 1e-2


def rel_err(ad, fd):
    ad = np.asarray(ad, dtype=np.float64).ravel()
    fd = np.asarray(fd, dtype=np.float64).ravel()
    if not np.all(np.isfinite(fd)):
        return float("nan"), "FD-NONFINITE"
    if not np.all(np.isfinite(ad)):
        return float("nan"), "DIFFER"
    den = np.linalg.norm(fd)
    num = np.linalg.norm(ad - fd)
    r = num / den if den > 0 else num
    return float(r), ("MATCH" if r < TOL else "DIFFER")


def main():
    path = os.path.abspath(sys.argv[1])
    folder = os.path.dirname(path)
    sys.path.insert(0, folder)
    os.chdir(folder)
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    t0 = time.time()
    spec.loader.exec_module(mod)
    if hasattr(mod, "verify"):
        mode = "verify"
        ad, fd = mod.verify()
        eps = None
        repeat_diff = None
    else:
        mode = "evaluate"
        p0 = np.array(mod.PARAMS0, dtype=np.float64)
        eps_all = np.broadcast_to(np.asarray(getattr(mod, "FD_EPS", 1e-3), dtype=np.float64), (p0.size,))
        eps = float(eps_all[0]) if np.all(eps_all == eps_all[0]) else eps_all.tolist()
        _, g = mod.evaluate(p0.copy())
        ad = np.asarray(g, dtype=np.float64).ravel()
        fd = np.zeros(p0.size)
        for k in range(p0.size):
            pp = p0.copy().ravel()
            pm = p0.copy().ravel()
            pp[k] += eps_all[k]
            pm[k] -= eps_all[k]
            lp, _ = mod.evaluate(pp.reshape(p0.shape))
            lm, _ = mod.evaluate(pm.reshape(p0.shape))
            fd[k] = (float(lp) - float(lm)) / (2.0 * eps_all[k])
        # evaluate() must be a pure function of p: the AD gradient again, after all the FD calls
        _, g2 = mod.evaluate(p0.copy())
        g2 = np.asarray(g2, dtype=np.float64).ravel()
        repeat_diff = float(np.nanmax(np.abs(g2 - ad))) if np.all(np.isfinite(ad)) else None
    ad = np.asarray(ad, dtype=np.float64).ravel()
    fd = np.asarray(fd, dtype=np.float64).ravel()
    r, verdict = rel_err(ad, fd)

    def clean(a):
        return [x if math.isfinite(x) else str(x) for x in a.tolist()]

    out = {
        "program": name,
        "mode": mode,
        "fd_eps": eps,
        "ad": clean(ad),
        "fd": clean(fd),
        "rel_err": r if math.isfinite(r) else str(r),
        "verdict": verdict,
        "repeat_max_abs_diff": repeat_diff,
        "seconds": round(time.time() - t0, 2),
    }
    print("@@RESULT@@ " + json.dumps(out))


if __name__ == "__main__":
    main()
