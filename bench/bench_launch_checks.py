"""Cost of the per-launch adjoint checks (TW404): `tapewatch check` with and without them.

For each program, interleaved in one invocation (A B A B ...):
  A: tapewatch check PROGRAM --check-launches
  B: tapewatch check PROGRAM
Prints the median wall time of each, their ratio per program, and the
median ratio (target: <= 1.30, which makes the checks the default).

Usage: python bench/bench_launch_checks.py [--repeat N] [--python PATH] [PROGRAM...]
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


def timed(cmd, env) -> float:
    started = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--python", default=sys.executable, help="interpreter with Warp")
    parser.add_argument("programs", nargs="*")
    ns = parser.parse_args()
    programs = [Path(p) for p in ns.programs] or sorted((ROOT / "examples").glob("*.py"))
    env = dict(os.environ, WARP_CACHE_PATH=tempfile.mkdtemp(prefix="tw-bench-cache-"))
    env["PYTHONPATH"] = str(ROOT / "server") + os.pathsep + env.get("PYTHONPATH", "")
    base = [ns.python, "-m", "tapewatch.cli", "check", "--device", "cpu", "-q", "--format", "json", "--no-lint"]
    ratios = []
    print("%-34s %12s %12s %7s" % ("program", "checks [s]", "without [s]", "ratio"))
    for program in programs:
        with_checks, without = [], []
        timed(base + [str(program)], env)  # warm the OS file cache
        for _ in range(ns.repeat):
            with_checks.append(timed(base + ["--check-launches", str(program)], env))
            without.append(timed(base + [str(program)], env))
        ratio = statistics.median(a / b for a, b in zip(with_checks, without))
        ratios.append(ratio)
        print("%-34s %12.2f %12.2f %7.3f" % (program.name, statistics.median(with_checks),
                                              statistics.median(without), ratio))
    print("median ratio: %.3f (target <= 1.30)" % statistics.median(ratios))
    return 0


if __name__ == "__main__":
    sys.exit(main())
