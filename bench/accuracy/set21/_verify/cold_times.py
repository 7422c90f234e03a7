"""Standalone wall time of every program with an empty Warp kernel cache
(kernel compilation included), two programs at a time.

    python _verify/cold_times.py

Writes ``_verify/cold_times.json`` ({program: {cold_s, rc}}).
"""
import glob
import json
import os
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PY = "/work/main/.venv/bin/python"

out = {}


def one(p):
    cache = tempfile.mkdtemp(prefix="warp_cold_")
    env = dict(os.environ, WARP_CACHE_PATH=cache, OMP_NUM_THREADS="1")
    t = time.time()
    r = subprocess.run([PY, os.path.basename(p)], cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)
    name = os.path.basename(p)[:-3]
    out[name] = {"cold_s": round(time.time() - t, 2), "rc": r.returncode}
    shutil.rmtree(cache, ignore_errors=True)
    print(f"{name:45s} {out[name]['cold_s']:6.2f} s rc={r.returncode}", flush=True)


with ThreadPoolExecutor(max_workers=2) as ex:
    list(ex.map(one, sorted(glob.glob(os.path.join(ROOT, "[bc][0-9][0-9]_*.py")))))
json.dump(out, open(os.path.join(HERE, "cold_times.json"), "w"), indent=1, sort_keys=True)
