"""Warm re-verification against a plain run: what a user pays for re-running after an edit.

For each program, after one warm-up run of each side (so every kernel module
is in Warp's cache), interleaved in one invocation, the order rotating each
round (A B C, B C A, C A B, ...: a run just after the tracker's 4-second
rebuild is ~0.1 s slower on a 2-core machine, and a fixed order would always
hand that to the same side):
  A: python PROGRAM                                  (plain, untracked)
  B: python PROGRAM with Warp's tracker on           (verify_autograd_array_access)
  C: tapewatch check PROGRAM                          (warm: cached binaries, every check on)
Prints the median wall time of each and the ratios B/A and C/A per program,
then the median of C/A (target: <= 1.30).

Usage: python bench/bench_warm.py [--repeat N] [--python PATH] [PROGRAM...]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUN = ("import sys, runpy, warp; warp.config.verify_autograd_array_access = %s; "
       "sys.argv = [sys.argv[1]]; sys.path[0] = __import__('os').path.dirname(sys.argv[0]); "
       "runpy.run_path(sys.argv[0], run_name='__main__')")


def timed(cmd, env) -> float:
    """Wall seconds of one run; its CPU seconds (the whole process tree) are added to CPU[cmd[-1]]."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.setdefault(tuple(cmd), []).append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return wall


# CPU seconds per command line: on a shared, loaded machine a steadier measure than wall time
# (it counts Tapewatch's own parallel work too, so it never flatters the ratio).
CPU: dict = {}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--python", default=sys.executable, help="interpreter with Warp (runs every side)")
    parser.add_argument("programs", nargs="*")
    ns = parser.parse_args()
    programs = [Path(p) for p in ns.programs] or sorted((ROOT / "examples").glob("*.py"))
    env = dict(os.environ, WARP_CACHE_PATH=tempfile.mkdtemp(prefix="tw-bench-cache-"))
    env["PYTHONPATH"] = str(ROOT / "server") + os.pathsep + env.get("PYTHONPATH", "")
    sides = {
        "plain": lambda p: [ns.python, "-c", RUN % "False", str(p)],
        "tracker": lambda p: [ns.python, "-c", RUN % "True", str(p)],
        "tapewatch": lambda p: [ns.python, "-m", "tapewatch.cli", "check", "--device", "cpu", "-q",
                                "--format", "json", "--python", ns.python, str(p)],
    }
    ratios, cpu_ratios = [], []
    print("%-32s %9s %9s %9s %8s %8s" % ("program", "plain", "tracker", "tapewatch", "trk/pl", "tw/pl"))
    for program in programs:
        times = {k: [] for k in sides}
        for make in sides.values():
            timed(make(program), env)  # warm: compile once, fill the cache
        names = list(sides)
        for r in range(ns.repeat):
            for name in names[r % 3:] + names[:r % 3]:
                times[name].append(timed(sides[name](program), env))
        med = {k: statistics.median(v) for k, v in times.items()}
        tw = statistics.median(c / a for c, a in zip(times["tapewatch"], times["plain"]))
        trk = statistics.median(b / a for b, a in zip(times["tracker"], times["plain"]))
        ratios.append(tw)
        print("%-32s %9.2f %9.2f %9.2f %8.2f %8.2f" % (program.name, med["plain"], med["tracker"],
                                                        med["tapewatch"], trk, tw))
        cpu = {k: CPU[tuple(make(program))][1:] for k, make in sides.items()}  # without the warm-up runs
        cpu_ratios.append(statistics.median(c / a for c, a in zip(cpu["tapewatch"], cpu["plain"])))
    print("median tapewatch/plain: %.2f (target <= 1.30)" % statistics.median(ratios))
    print("median tapewatch/plain in CPU time: %.2f" % statistics.median(cpu_ratios))
    return 0


if __name__ == "__main__":
    sys.exit(main())
