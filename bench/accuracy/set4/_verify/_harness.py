"""Ground-truth harness for set4.

Every program is checked in float64: its source (and the helpers it imports)
is copied to _build/ with float32 types rewritten to float64, and the Warp
code generator is told to type Python float literals as float64.  The copy is
imported as a module and driven by the check script; finite differences use
the same (float64) forward.  A 'fix' is a list of (file, old, new) text
substitutions applied to the copy; each old text must occur exactly once.
"""
import importlib
import json
import os
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SET4 = os.path.dirname(HERE)
BUILD = os.path.join(HERE, "_build")
RESULTS = os.path.join(HERE, "_results")
os.makedirs(BUILD, exist_ok=True)
os.makedirs(RESULTS, exist_ok=True)

import warp as wp  # noqa: E402
import warp._src.codegen as _cg  # noqa: E402

_cg.float32 = wp.float64  # python float literals -> float64 in kernels
wp.config.quiet = True
wp.config.kernel_cache_dir = os.path.join(HERE, "_cache")
wp.init()

if BUILD not in sys.path:
    sys.path.insert(0, BUILD)

_SUBS = [
    (r"\bwp\.float32\b", "wp.float64"),
    (r"\bnp\.float32\b", "np.float64"),
    (r"\bwp\.vec2\b", "wp.vec2d"),
    (r"\bwp\.vec3\b", "wp.vec3d"),
    (r"\bwp\.vec4\b", "wp.vec4d"),
    (r"\bwp\.mat22\b", "wp.mat22d"),
    (r"\bwp\.mat33\b", "wp.mat33d"),
]


def _helpers():
    return [f[:-3] for f in os.listdir(SET4) if f.startswith("_") and f.endswith(".py")]


def load(name, fix=None, tag="orig"):
    """Import a float64 copy of program `name` (optionally with `fix` applied)."""
    fix = list(fix or [])
    uniq = f"{name}__{tag}"
    prog_src = open(os.path.join(SET4, name + ".py")).read()
    files = {name: prog_src}
    used = [h for h in _helpers() if re.search(r"\b%s\b" % re.escape(h), prog_src)]
    for h in used:
        files[h] = open(os.path.join(SET4, h + ".py")).read()
    for fname, old, new in fix:
        key = fname[:-3] if fname.endswith(".py") else fname
        n = files[key].count(old)
        assert n == 1, f"fix text occurs {n} times in {fname}: {old!r}"
        files[key] = files[key].replace(old, new)
    for key, src in list(files.items()):
        for pat, rep in _SUBS:
            src = re.sub(pat, rep, src)
        for h in used:
            src = re.sub(r"\b%s\b" % re.escape(h), f"{h}__{uniq}", src)
        assert "float32" not in src, f"float32 left in {key}"
        files[key] = src
    for key, src in files.items():
        out = uniq if key == name else f"{key}__{uniq}"
        with open(os.path.join(BUILD, out + ".py"), "w") as f:
            f.write(src)
    importlib.invalidate_caches()
    return importlib.import_module(uniq)


def fd(f, x0, eps=1e-6):
    """Central finite differences of scalar f at x0 (float64)."""
    x0 = np.array(x0, dtype=np.float64)
    g = np.zeros_like(x0)
    for idx in np.ndindex(x0.shape):
        xp = x0.copy()
        xm = x0.copy()
        xp[idx] += eps
        xm[idx] -= eps
        g[idx] = (f(xp) - f(xm)) / (2.0 * eps)
    return g


def rel_err(ad, ref):
    ad = np.asarray(ad, dtype=np.float64).ravel()
    ref = np.asarray(ref, dtype=np.float64).ravel()
    if not np.all(np.isfinite(ad)):
        return float("inf")
    return float(np.max(np.abs(ad - ref)) / max(np.max(np.abs(ref)), 1e-12))


def _fmt(a, n=3):
    a = np.asarray(a, dtype=np.float64).ravel()[:n]
    return ", ".join(f"{v:.6g}" for v in a)


def report(name, cls, ad, ref, fixed_ad=None, fixed_ref=None, note=""):
    """Record the verdict; exits non-zero when the ground truth is not as claimed."""
    err = rel_err(ad, ref)
    res = {"name": name, "class": cls, "ad": _fmt(ad), "fd": _fmt(ref), "rel_err": err, "note": note}
    if cls == "correct":
        ok = err < 1e-3
    else:
        if fixed_ref is None:
            fixed_ref = ref
        ferr = rel_err(fixed_ad, fixed_ref)
        res["fixed_ad"] = _fmt(fixed_ad)
        res["fixed_rel_err"] = ferr
        ok = err > 1e-3 and ferr < 1e-3
    res["ok"] = bool(ok)
    with open(os.path.join(RESULTS, name + ".json"), "w") as f:
        json.dump(res, f, indent=1)
    print(json.dumps(res))
    sys.exit(0 if ok else 1)
