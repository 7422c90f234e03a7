"""Ground truth for a set: run every program standalone, then measure it.

    python bench/accuracy/_verify/verify.py SET [name-prefix ...] [--python PY] [-j N]

For each bNN_*.py / cNN_*.py in the set folder (N programs at a time, each program's steps one after
the other):
  1. ``python prog.py`` must exit 0; its wall time is recorded (twice: the second run has its kernels
     cached, the time a user sees);
  2. ``driver.py prog.py`` compares the AD gradient with central finite differences (rel_err =
     |ad - fd| / |fd| of 2-norms; MATCH below 1e-2; NaN AD where FD is finite is DIFFER); for
     ``evaluate`` programs it also re-evaluates the AD gradient after all FD calls, which must repeat
     (no state leaking between calls).
Every bug program must DIFFER and every correct program MATCH. Results are merged into
``SET/_verify/results.json``.
"""
import json
import os
import re
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from common import DRIVER, arguments


def measure(paths, python, path, timeout=600):
    """Run the driver on one program file; its result dict."""
    t = time.time()
    r = subprocess.run([python, DRIVER, path], capture_output=True, text=True, env=paths.env(), timeout=timeout)
    m = re.search(r"^@@RESULT@@ (.*)$", r.stdout, re.M)
    if not m:
        return {"program": os.path.basename(path)[:-3], "verdict": "ERROR", "rc": r.returncode,
                "stderr_tail": r.stderr[-3000:], "stdout_tail": r.stdout[-2000:]}
    res = json.loads(m.group(1))
    res["driver_wall_s"] = round(time.time() - t, 2)
    return res


def standalone(paths, python, path, timeout=120):
    t = time.time()
    try:
        r = subprocess.run([python, os.path.basename(path)], cwd=os.path.dirname(path), capture_output=True,
                           text=True, env=paths.env(), timeout=timeout)
        rc, tail = r.returncode, (r.stdout + r.stderr)[-1500:]
    except subprocess.TimeoutExpired:
        rc, tail = "timeout", ""
    return {"rc": rc, "wall_s": round(time.time() - t, 2), "tail": tail}


def fmt(v):
    return f"{v:.4g}" if isinstance(v, (int, float)) else str(v)


def main():
    ns, paths = arguments(__doc__)
    out_path = os.path.join(paths.data, "results.json")
    results = json.load(open(out_path)) if os.path.exists(out_path) else {}
    lock = threading.Lock()

    def one(p):
        name = os.path.basename(p)[:-3]
        sa = standalone(paths, ns.python, p)
        sa2 = standalone(paths, ns.python, p) if sa["rc"] == 0 else sa
        res = measure(paths, ns.python, p)
        res.update(standalone_rc=sa["rc"], standalone_first_s=sa["wall_s"], standalone_cached_s=sa2["wall_s"])
        if sa["rc"] != 0:
            res["standalone_tail"] = sa["tail"]
        expected = "DIFFER" if name.startswith("b") else "MATCH"
        res["expected"] = expected
        rep = res.get("repeat_max_abs_diff")
        ad_vals = [a for a in res.get("ad", []) if isinstance(a, (int, float))]
        res["repeat_ok"] = rep is None or rep <= 1e-5 * (1.0 + max((abs(a) for a in ad_vals), default=0.0))
        res["ok"] = res.get("verdict") == expected and sa["rc"] == 0 and res["repeat_ok"]
        with lock:
            results[name] = res
            print(f"{name:40s} {res.get('verdict'):8s} expect {expected:6s} rel_err={fmt(res.get('rel_err')):>10s} "
                  f"ad0={fmt(res.get('ad', ['-'])[0]):>11s} fd0={fmt(res.get('fd', ['-'])[0]):>11s} rc={sa['rc']} "
                  f"t={sa2['wall_s']}s rep={fmt(rep) if rep is not None else '-'} {'OK' if res['ok'] else '<<< FAIL'}",
                  flush=True)
            if res.get("verdict") == "ERROR":
                print(res.get("stderr_tail", ""))
            json.dump(results, open(out_path, "w"), indent=1, sort_keys=True)

    with ThreadPoolExecutor(max_workers=ns.j) as ex:
        list(ex.map(one, paths.programs(filters=ns.prefixes)))
    bad = [k for k, v in results.items() if not v.get("ok")]
    print(f"\n{len(results)} programs measured, {len(bad)} not as expected: {bad}")


if __name__ == "__main__":
    main()
