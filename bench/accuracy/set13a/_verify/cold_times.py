"""Standalone wall time of every program with an EMPTY Warp kernel cache
(kernel compilation included), one program at a time.
Writes _verify/cold_times.json."""
import glob
import json
import os
import shutil
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PY = "/work/main/.venv/bin/python"
out = {}
for p in sorted(glob.glob(os.path.join(ROOT, "[bc][0-9][0-9]_*.py"))):
    cache = tempfile.mkdtemp(prefix="kcold_", dir=HERE)
    env = dict(os.environ, WARP_CACHE_PATH=cache, OMP_NUM_THREADS="1")
    t = time.time()
    r = subprocess.run([PY, os.path.basename(p)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    dt = round(time.time() - t, 2)
    shutil.rmtree(cache, ignore_errors=True)
    out[os.path.basename(p)[:-3]] = {"rc": r.returncode, "cold_s": dt}
    print(os.path.basename(p), r.returncode, dt, flush=True)
json.dump(out, open(os.path.join(HERE, "cold_times.json"), "w"), indent=1, sort_keys=True)
