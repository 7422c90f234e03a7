"""What a verification costs on a GPU: NVIDIA's differentiable examples, plain and under Tapewatch.

For each example, after one warm-up run of each side (kernel modules in Warp's cache), the two sides
alternate, the order swapping each round, on the same device in one invocation:
  plain: python EXAMPLE ARGS
  check: python -m tapewatch check EXAMPLE --device D -q -- ARGS   (every check on, warm cache)
Prints the median wall time of each side and check/plain per example, then the median ratio
(target: <= 1.30 warm on cuda:0).  Also prints what the check run said it could not measure.

Usage: python bench/bench_gpu_overhead.py [--device cuda:0] [--repeat 3] [--only NAME...]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# (folder under warp/examples, file, arguments): the sizes the GPU evaluation used.
EXAMPLES = [
    ("optim", "example_fluid_checkpoint.py", ["--train-iters", "3"]),
    ("optim", "example_fluid_checkpoint_custom_backward.py", ["--train-iters", "3"]),
    ("optim", "example_navier_stokes_perturbation.py", ["--headless", "--train-iters", "3"]),
    ("optim", "example_particle_repulsion.py", ["--headless"]),
    ("fem", "example_darcy_ls_optimization.py", ["--headless"]),
    ("fem", "example_elastic_shape_optimization.py", ["--headless"]),
]


def timed(cmd, env, cwd) -> tuple:
    started = time.perf_counter()
    done = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          check=False)
    return time.perf_counter() - started, done


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda:0")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=[])
    ns = parser.parse_args()
    import warp

    base = Path(warp.__file__).parent / "examples"
    env = dict(os.environ, WARP_CACHE_PATH=tempfile.mkdtemp(prefix="tw-gpu-bench-"))
    env["PYTHONPATH"] = str(ROOT / "server") + os.pathsep + env.get("PYTHONPATH", "")
    ratios = []
    print("%-48s %9s %9s %7s" % ("example", "plain s", "check s", "ratio"))
    for folder, name, args in EXAMPLES:
        script = base / folder / name
        if not script.exists() or (ns.only and not any(o in name for o in ns.only)):
            continue
        plain = [sys.executable, str(script), *args, "--device", ns.device]
        check = [sys.executable, "-m", "tapewatch", "check", str(script), "--device", ns.device, "-q",
                 "--format", "json", "--", *args]
        first, ran = timed(plain, env, script.parent)
        if ran.returncode != 0:
            print("%-48s does not run plain: %s" % (name, ran.stderr.strip().splitlines()[-1:]))
            continue
        timed(check, env, script.parent)  # warm-up: kernel modules in the cache
        times: dict = {"plain": [], "check": []}
        report = None
        for round_ in range(ns.repeat):
            order = ("plain", "check") if round_ % 2 == 0 else ("check", "plain")
            for side in order:
                seconds, done = timed(plain if side == "plain" else check, env, script.parent)
                times[side].append(seconds)
                if side == "check":
                    report = done.stdout
        p, c = statistics.median(times["plain"]), statistics.median(times["check"])
        ratios.append(c / p)
        print("%-48s %9.2f %9.2f %6.2fx" % (name, p, c, c / p))
        try:
            data = json.loads(report or "{}")
        except ValueError:
            data = {}
        checks = data.get("launch_checks") or {}
        print("    status %s; launch checks %s checked, %s skipped %s; not measured: %s" % (
            data.get("status"), checks.get("checked"), checks.get("skipped"), checks.get("skip_reasons") or {},
            data.get("not_measured") or []))
    if ratios:
        print("median check/plain: %.2fx (target <= 1.30)" % statistics.median(ratios))
    return 0


if __name__ == "__main__":
    sys.exit(main())
