import os, sys, runpy, io, contextlib, json
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the set's folder
RESULTS = os.path.join(ROOT, "_verify", "results.jsonl")


def run_prog(name):
    """Run a program in-process and return its globals (stdout captured)."""
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    os.chdir(ROOT)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        g = runpy.run_path(os.path.join(ROOT, name), run_name="__main__")
    g["__stdout__"] = buf.getvalue()
    return g


def cfd(f, x, eps):
    """central finite differences of scalar f w.r.t. every entry of array x (float64)."""
    x = np.array(x, dtype=np.float64)
    g = np.zeros_like(x)
    flat = x.reshape(-1)
    gf = g.reshape(-1)
    for k in range(flat.size):
        xp = flat.copy(); xp[k] += eps
        xm = flat.copy(); xm[k] -= eps
        gf[k] = (f(xp.reshape(x.shape)) - f(xm.reshape(x.shape))) / (2 * eps)
    return g


def record(name, kind, ad, fd, note="", extra=None):
    ad = np.asarray(ad, dtype=np.float64).reshape(-1)
    fd = np.asarray(fd, dtype=np.float64).reshape(-1)
    finite = bool(np.all(np.isfinite(ad)))
    if finite:
        err = float(np.max(np.abs(ad - fd)) / (np.max(np.abs(fd)) + 1e-12))
    else:
        err = float("nan")
    match = finite and err < 2e-2
    ok = match if kind == "correct" else (not match)
    row = dict(name=name, kind=kind, ad=ad.tolist()[:6], fd=fd.tolist()[:6], rel_err=err, match=match, ok=ok, note=note)
    if extra:
        row.update(extra)
    print(json.dumps(row))
    with open(RESULTS, "a") as fh:
        fh.write(json.dumps(row) + "\n")
    assert ok, f"{name}: ground truth not as labelled"
    return row


def run_patched(name, patches, helper=None, helper_patches=()):
    """Run a copy of a program with textual fixes applied (each old string must occur exactly once)."""
    fixdir = os.path.join(ROOT, "_verify", "fixed")
    os.makedirs(fixdir, exist_ok=True)
    src = open(os.path.join(ROOT, name)).read()
    for old, new in patches:
        assert src.count(old) == 1, (name, old, src.count(old))
        src = src.replace(old, new)
    path = os.path.join(fixdir, name)
    open(path, "w").write(src)
    if helper:
        hsrc = open(os.path.join(ROOT, helper)).read()
        for old, new in helper_patches:
            assert hsrc.count(old) == 1, (helper, old)
            hsrc = hsrc.replace(old, new)
        open(os.path.join(fixdir, helper), "w").write(hsrc)
        sys.modules.pop(helper[:-3], None)
        if fixdir in sys.path:
            sys.path.remove(fixdir)
        sys.path.insert(0, fixdir)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        g = runpy.run_path(path, run_name="__main__")
    g["__stdout__"] = buf.getvalue()
    if helper:
        sys.path.remove(fixdir)
        sys.modules.pop(helper[:-3], None)
    return g


def run_patched_isolated(name, patches, expr, helper=None, helper_patches=()):
    """Like run_patched but in a fresh interpreter (module options / registries do not leak); returns eval(expr)."""
    import subprocess, pickle, base64
    code = f"""
import sys, json, pickle, base64
sys.path.insert(0, {os.path.join(ROOT, '_verify')!r})
from common import run_patched
import numpy as np
g = run_patched({name!r}, {list(patches)!r}, helper={helper!r}, helper_patches={list(helper_patches)!r})
val = eval({expr!r}, g)
print("@@RESULT@@" + base64.b64encode(pickle.dumps(np.asarray(val, dtype=np.float64))).decode())
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    for line in out.stdout.splitlines():
        if line.startswith("@@RESULT@@"):
            return pickle.loads(base64.b64decode(line[len("@@RESULT@@"):]))
    raise RuntimeError(out.stdout[-2000:] + out.stderr[-3000:])
