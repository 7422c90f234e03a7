"""What the probe adds to one launch: microseconds per taped launch, plain and under Tapewatch.

On a GPU a launch costs Warp microseconds, so the probe's own Python per launch (call sites, the tracker's
bookkeeping, the sensors) is what a verification pays (NVIDIA's fluid_checkpoint captures ~55,000 taped
launches).  This measures that cost on any device: a generated script times N taped launches of a tiny
kernel inside the program (start-up and compilation excluded), three ways in one invocation:
  plain    python SCRIPT
  tracker  python SCRIPT with wp.config.verify_autograd_array_access (Warp's own tracker, the floor)
  probe    python -m tapewatch.probe SCRIPT (every check on, as `tapewatch check` runs it)
and, where Warp can capture on the device (CUDA, or the CPU from Warp 1.19), the same launches recorded
inside ``wp.ScopedCapture``.  Prints the median microseconds per launch of each and probe - plain.

Usage: python bench/bench_launch_overhead.py [--device cpu] [--launches 3000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = '''
import sys, time
import numpy as np
import warp as wp

wp.config.quiet = True
if sys.argv[1] == "tracker":
    wp.config.verify_autograd_array_access = True
N, CAPTURE = int(sys.argv[2]), sys.argv[3] == "capture"
wp.set_device(sys.argv[4])


@wp.kernel
def step(a: wp.array(dtype=float), k: wp.array(dtype=float), b: wp.array(dtype=float)):
    i = wp.tid()
    b[i] = a[i] * k[0] + 0.5 * a[i]


k = wp.array([0.9], dtype=float, requires_grad=True)
states = [wp.zeros(16, dtype=float, requires_grad=True) for _ in range(N + 1)]
wp.load_module(device=wp.get_device())


def record(tape):
    with tape:
        for n in range(N):
            wp.launch(step, dim=16, inputs=[states[n], k], outputs=[states[n + 1]])


tape = wp.Tape()
start = time.perf_counter()
if CAPTURE:
    with wp.ScopedCapture() as capture:
        record(tape)
else:
    record(tape)
wp.synchronize()
print("SECONDS", time.perf_counter() - start)
'''


def can_capture(device: str) -> bool:
    probe = ("import warp as wp; wp.config.quiet = True; d = wp.get_device(%r); "
             "print(d.is_cuda or hasattr(wp._src, 'apic'))" % device)
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    return out.stdout.strip().endswith("True")


def seconds(cmd, env) -> float:
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    for line in done.stdout.splitlines():
        if line.startswith("SECONDS "):
            return float(line.split()[1])
    raise SystemExit("no timing from %s:\n%s" % (" ".join(cmd[:4]), done.stderr[-2000:]))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--launches", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=3)
    ns = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="tw-launch-bench-")
    script = Path(folder) / "many_launches.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, WARP_CACHE_PATH=os.path.join(folder, "cache"))
    env["PYTHONPATH"] = str(ROOT / "server") + os.pathsep + env.get("PYTHONPATH", "")
    sides = {
        "plain": lambda mode: [sys.executable, str(script), "plain", str(ns.launches), mode, ns.device],
        "tracker": lambda mode: [sys.executable, str(script), "tracker", str(ns.launches), mode, ns.device],
        "probe": lambda mode: [sys.executable, "-m", "tapewatch.probe", "--device", ns.device, "--check-launches",
                               "--events", os.devnull, "--", str(script), "plain", str(ns.launches), mode,
                               ns.device],
    }
    modes = ["taped"] + (["captured"] if can_capture(ns.device) else [])
    print("%-9s %10s %10s %10s %14s" % ("launches", "plain us", "tracker us", "probe us", "probe-plain us"))
    for mode in modes:
        flag = "capture" if mode == "captured" else "no"
        for cmd in sides.values():
            seconds(cmd(flag), env)  # warm the kernel cache
        times: dict = {name: [] for name in sides}
        for r in range(ns.repeat):
            order = list(sides.items()) if r % 2 == 0 else list(sides.items())[::-1]
            for name, cmd in order:
                times[name].append(seconds(cmd(flag), env) / ns.launches * 1e6)
        med = {name: statistics.median(v) for name, v in times.items()}
        print("%-9s %10.1f %10.1f %10.1f %14.1f" % (mode, med["plain"], med["tracker"], med["probe"],
                                                    med["probe"] - med["plain"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
