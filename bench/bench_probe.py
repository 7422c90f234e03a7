"""Overhead of `tapewatch check` against a plain tracker run, per example.

For each example, in the same invocation and interleaved (A B A B ...):
  A: tapewatch check EXAMPLE --device cpu       (CLI + runner + probe)
  B: python -c 'set verify_autograd_array_access; runpy the script'
Both recompile the user's kernels (the tracker bypasses Warp's kernel cache),
so the ratio measures what Tapewatch adds.  Prints the median wall time of
each, their ratio per example, and the median ratio (target: <= 1.10).

Usage: python bench/bench_probe.py [--repeat N] [--python PATH] [EXAMPLE...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLAIN = (
    "import sys, runpy, warp; warp.config.verify_autograd_array_access = True; "
    "sys.argv = [sys.argv[1]]; sys.path[0] = __import__('os').path.dirname(sys.argv[0]); "
    "runpy.run_path(sys.argv[0], run_name='__main__')"
)


def timed(cmd, env) -> float:
    started = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--python", default=sys.executable, help="interpreter with Warp (runs both sides)")
    parser.add_argument("examples", nargs="*")
    ns = parser.parse_args()
    examples = [Path(e) for e in ns.examples] or sorted((ROOT / "examples").glob("*.py"))
    env = dict(os.environ, WARP_CACHE_PATH=tempfile.mkdtemp(prefix="tw-bench-cache-"))
    tapewatch = [ns.python, "-m", "tapewatch.cli", "check", "--device", "cpu", "-q", "--format", "json"]
    env["PYTHONPATH"] = str(ROOT / "server") + os.pathsep + env.get("PYTHONPATH", "")
    ratios = []
    print("%-28s %10s %10s %7s" % ("example", "check [s]", "plain [s]", "ratio"))
    for example in examples:
        a, b = [], []
        timed([ns.python, "-c", PLAIN, str(example)], env)  # warm the OS file cache
        for _ in range(ns.repeat):
            a.append(timed(tapewatch + [str(example)], env))
            b.append(timed([ns.python, "-c", PLAIN, str(example)], env))
        ratio = statistics.median(x / y for x, y in zip(a, b))
        ratios.append(ratio)
        print("%-28s %10.2f %10.2f %7.3f" % (example.name, statistics.median(a), statistics.median(b), ratio))
    print("median ratio: %.3f (target <= 1.10)" % statistics.median(ratios))
    return 0


if __name__ == "__main__":
    sys.exit(main())
