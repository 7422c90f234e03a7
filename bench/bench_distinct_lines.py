"""Cost per distinct finding: a script with N distinct launch lines that each overwrite.

Generates a program whose tape holds N launches, each on its own line and
each overwriting what the previous one read (N distinct TW101 findings),
then times, interleaved: the plain untracked script and `tapewatch check`
on it (warm).  Prints both and the ratio (target at N = 3000: <= 2.0).

Usage: python bench/bench_distinct_lines.py [--lines N] [--repeat R] [--python PATH]
"""

from __future__ import annotations

import argparse
import atexit
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAD = '''import warp as wp

@wp.kernel
def advance(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = 0.1 + wp.sin(x[i])

a = wp.full(4, 0.5, dtype=float, requires_grad=True)
b = wp.zeros(4, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
'''


def program(n: int) -> str:
    body = []
    for k in range(n):
        src, dst = ("a", "b") if k % 2 == 0 else ("b", "a")
        body.append("    wp.launch(advance, dim=4, inputs=[%s], outputs=[%s])  # line %d\n" % (src, dst, k))
    return HEAD + "".join(body)


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
    parser.add_argument("--lines", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--python", default=sys.executable)
    ns = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="tw-bench-lines-"))
    atexit.register(shutil.rmtree, folder, True)  # the script, its kernel cache and the kept runs
    script = folder / "lines.py"
    script.write_text(program(ns.lines))
    env = dict(os.environ, WARP_CACHE_PATH=str(folder / "cache"))
    env["PYTHONPATH"] = str(ROOT / "server") + os.pathsep + env.get("PYTHONPATH", "")
    plain = [ns.python, str(script)]
    check = [ns.python, "-m", "tapewatch.cli", "check", "-q", "--format", "json", "--no-check-launches",
             str(script)]
    timed(plain, env)
    timed(check, env)
    a, b = [], []
    for _ in range(ns.repeat):
        a.append(timed(plain, env))
        b.append(timed(check, env))
    ratio = statistics.median(y / x for x, y in zip(a, b))
    print("%d distinct launch lines: plain %.2f s, tapewatch %.2f s, ratio %.2f (target <= 2.0)"
          % (ns.lines, statistics.median(a), statistics.median(b), ratio))
    cpu_a, cpu_b = CPU[tuple(plain)][1:], CPU[tuple(check)][1:]  # without the warm-up runs
    print("  CPU time: plain %.2f s, tapewatch %.2f s, ratio %.2f"
          % (statistics.median(cpu_a), statistics.median(cpu_b),
             statistics.median(y / x for x, y in zip(cpu_a, cpu_b))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
