"""Generic FD check: program must expose PARAMS0 and evaluate(p) -> (loss, grad)."""
import sys, importlib.util, io, contextlib
import numpy as np
import warp as wp
wp.config.quiet = True

def load(path):
    spec = importlib.util.spec_from_file_location("prog_" + path.replace("/", "_").replace(".", "_"), path)
    m = importlib.util.module_from_spec(spec)
    sys.path.insert(0, "/tmp/blind2")
    spec.loader.exec_module(m)
    return m

def fd_check(m, eps=None, idx=None):
    p0 = np.array(m.PARAMS0, dtype=np.float64)
    with contextlib.redirect_stdout(io.StringIO()):
        l0, g = m.evaluate(p0.astype(np.float32))
    g = np.array(g, dtype=np.float64).ravel()
    flat = p0.ravel()
    fd = np.zeros_like(flat)
    idxs = range(flat.size) if idx is None else idx
    for i in idxs:
        h = eps if eps else 1e-3 * max(1.0, abs(flat[i]))
        pp = flat.copy(); pp[i] += h
        pm = flat.copy(); pm[i] -= h
        with contextlib.redirect_stdout(io.StringIO()):
            lp = m.evaluate(pp.reshape(p0.shape).astype(np.float32))[0]
            lm = m.evaluate(pm.reshape(p0.shape).astype(np.float32))[0]
        fd[i] = (lp - lm) / (2 * h)
    return l0, g, fd

if __name__ == "__main__":
    for path in sys.argv[1:]:
        m = load(path)
        if hasattr(m, "verify"):
            ad, fd = m.verify()
            ad = np.ravel(ad); fd = np.ravel(fd)
        else:
            _, ad, fd = fd_check(m, eps=getattr(m, "FD_EPS", None))
        err = np.max(np.abs(ad - fd)) / (np.max(np.abs(fd)) + 1e-12)
        np.set_printoptions(precision=5, suppress=False, linewidth=150)
        print(f"{path}: rel_err={err:.3g}  {'MATCH' if err < 2e-2 else 'DIFFER'}")
        print("   AD", ad[:8]); print("   FD", fd[:8])
