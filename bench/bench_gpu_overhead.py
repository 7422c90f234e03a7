"""What a verification costs on a GPU: NVIDIA's differentiable examples, plain and under Tapewatch.

For each example, after one warm-up run of each side (kernel modules in Warp's cache), the two sides
alternate, the order swapping each round, on the same device in one invocation:
  plain: python EXAMPLE ARGS
  check: python -m tapewatch check EXAMPLE --device D -q -- ARGS   (every check on, warm cache)
Prints the median wall time of each side and check/plain per example, then the median ratio
(target: <= 1.30 warm on cuda:0).  Also prints what the check run said it could not measure.

With --profile N, each example then runs once more under the probe in cProfile and the N functions
with the most own time are printed, with those of Tapewatch's by cumulative time: on a GPU the probe's
Python per launch is what costs, and one run there should say where it goes.

Usage: python bench/bench_gpu_overhead.py [--device cuda:0] [--repeat 3] [--only NAME...] [--profile N]
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


def profile(script: Path, args: list, device: str, env: dict, top: int) -> None:
    """The probe's run of SCRIPT under cProfile: where its time goes, Warp's and Tapewatch's."""
    import pstats

    with tempfile.TemporaryDirectory(prefix="tw-gpu-profile-") as tmp:
        out = os.path.join(tmp, "probe.prof")
        cmd = [sys.executable, "-m", "cProfile", "-o", out, "-m", "tapewatch.probe", "--events",
               os.path.join(tmp, "events.jsonl"), "--device", device, "--check-launches", "--",
               str(script), *args]
        seconds, done = timed(cmd, env, script.parent)
        if not os.path.exists(out):
            print("    profile: the run left no profile (exit %s): %s" % (
                done.returncode, done.stderr.strip().splitlines()[-1:]))
            return
        print("    profile: %.1f s under cProfile (exit %s); own time, top %d:" % (seconds, done.returncode, top))
        stats = pstats.Stats(out)
        rows = sorted(stats.stats.items(), key=lambda kv: kv[1][2], reverse=True)  # type: ignore[attr-defined]
        for (path, line, func), (_cc, calls, tt, ct, _callers) in rows[:top]:
            print("      %8.2f s own %8.2f s cum %9d calls  %s:%d %s" % (tt, ct, calls, _short(path), line, func))
        ours = [r for r in rows if "tapewatch" in r[0][0]]
        ours.sort(key=lambda kv: kv[1][3], reverse=True)
        print("    profile: Tapewatch's functions by cumulative time, top %d:" % top)
        for (path, line, func), (_cc, calls, tt, ct, _callers) in ours[:top]:
            print("      %8.2f s cum %8.2f s own %9d calls  %s:%d %s" % (ct, tt, calls, _short(path), line, func))


def _short(path: str) -> str:
    for anchor in ("tapewatch", "warp"):
        at = path.rfind(os.sep + anchor + os.sep)
        if at >= 0:
            return path[at + 1:]
    return path


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cuda:0")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="then profile each example's probe run and print the top N functions")
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
        if ns.profile:
            profile(script, [*args, "--device", ns.device], ns.device, env, ns.profile)
    if ratios:
        print("median check/plain: %.2fx (target <= 1.30)" % statistics.median(ratios))
    return 0


if __name__ == "__main__":
    sys.exit(main())
