"""Standalone wall time of every program of a set with an empty Warp kernel cache (kernel compilation
included).

    python bench/accuracy/_verify/cold_times.py SET [name-prefix ...] [--python PY] [-j N]

Writes ``SET/_verify/cold_times.json`` ({program: {cold_s, rc}}).
"""
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from common import arguments


def main():
    ns, paths = arguments(__doc__)
    out_path = os.path.join(paths.data, "cold_times.json")
    out = json.load(open(out_path)) if os.path.exists(out_path) else {}
    lock = threading.Lock()

    def one(p):
        cache = tempfile.mkdtemp(prefix="warp_cold_")
        t = time.time()
        r = subprocess.run([ns.python, os.path.basename(p)], cwd=paths.root, capture_output=True, text=True,
                           env=paths.env(cache), timeout=300)
        name = os.path.basename(p)[:-3]
        shutil.rmtree(cache, ignore_errors=True)
        with lock:
            out[name] = {"cold_s": round(time.time() - t, 2), "rc": r.returncode}
            print(f"{name:45s} {out[name]['cold_s']:6.2f} s rc={r.returncode}", flush=True)

    with ThreadPoolExecutor(max_workers=ns.j) as ex:
        list(ex.map(one, paths.programs(filters=ns.prefixes)))
    json.dump(out, open(out_path, "w"), indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
