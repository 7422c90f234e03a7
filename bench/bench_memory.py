"""Peak memory of the probe against a plain run, on scripts of 10,000 taped launches.

For each workload, in the same invocation and interleaved (A B A B ...):
  A: python -m tapewatch.probe --device cpu --events FILE -- SCRIPT   (every sensor on)
  B: python SCRIPT                                                     (plain, untracked)
and the peak resident set size of each child (``os.wait4``'s ``ru_maxrss``).
Prints the medians, their ratio per workload, and the worst ratio (target: <= 1.5).

Workloads (generated, 10,000 taped launches each):
  one-tape     one tape, 10,000 steps into fresh state arrays, one backward
  many-tapes   100 training iterations of 100 steps, a new tape each (tapes retired)
  pingpong     one tape, 10,000 launches over two buffers (the overwrite repeats 10,000 times)

Usage: python bench/bench_memory.py [--repeat N] [--python PATH] [--launches N]
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

KERNELS = '''
import numpy as np
import warp as wp

N = 64
STEPS = {steps}


@wp.kernel
def step(x: wp.array(dtype=float), k: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] + 0.001 * wp.sin(k[0] * x[i])


@wp.kernel
def total(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    wp.atomic_add(loss, 0, x[wp.tid()])
'''

WORKLOADS = {
    "one-tape": KERNELS + '''
k = wp.array([1.0], dtype=float, requires_grad=True)
states = [wp.array(np.linspace(0, 1, N, dtype=np.float32), requires_grad=True)]
states += [wp.zeros(N, dtype=float, requires_grad=True) for _ in range(STEPS)]
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    for s in range(STEPS - 1):
        wp.launch(step, dim=N, inputs=[states[s], k], outputs=[states[s + 1]])
    wp.launch(total, dim=N, inputs=[states[STEPS - 1]], outputs=[loss])
tape.backward(loss)
print(k.grad.numpy())
''',
    "many-tapes": KERNELS + '''
ITERS = 100
k = wp.array([1.0], dtype=float, requires_grad=True)
per = STEPS // ITERS
for it in range(ITERS):
    states = [wp.array(np.linspace(0, 1, N, dtype=np.float32), requires_grad=True)]
    states += [wp.zeros(N, dtype=float, requires_grad=True) for _ in range(per)]
    loss = wp.zeros(1, dtype=float, requires_grad=True)
    tape = wp.Tape()
    with tape:
        for s in range(per - 1):
            wp.launch(step, dim=N, inputs=[states[s], k], outputs=[states[s + 1]])
        wp.launch(total, dim=N, inputs=[states[per - 1]], outputs=[loss])
    tape.backward(loss)
    tape.zero()
print(k.grad.numpy())
''',
    "pingpong": KERNELS + '''
k = wp.array([1.0], dtype=float, requires_grad=True)
a = wp.array(np.linspace(0, 1, N, dtype=np.float32), requires_grad=True)
b = wp.zeros(N, dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    for s in range(STEPS // 2 - 1):
        wp.launch(step, dim=N, inputs=[a, k], outputs=[b])
        wp.launch(step, dim=N, inputs=[b, k], outputs=[a])
    wp.launch(total, dim=N, inputs=[a], outputs=[loss])
tape.backward(loss)
print(k.grad.numpy())
''',
}


def peak_rss_mb(cmd, env) -> float:
    """The child's peak resident set size in MiB (``ru_maxrss`` is KiB on Linux)."""
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit("failed (exit %d): %s" % (proc.returncode, " ".join(cmd)))
    return usage.ru_maxrss / 1024.0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--python", default=sys.executable, help="interpreter with Warp (runs both sides)")
    parser.add_argument("--launches", type=int, default=10_000)
    ns = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="tw-bench-memory-"))
    env = dict(os.environ, WARP_CACHE_PATH=str(work / "kernels"))
    env["PYTHONPATH"] = str(ROOT / "server") + os.pathsep + env.get("PYTHONPATH", "")
    ratios = []
    print("%-12s %14s %14s %7s" % ("workload", "probe [MiB]", "plain [MiB]", "ratio"))
    for name, text in WORKLOADS.items():
        script = work / (name.replace("-", "_") + ".py")
        script.write_text(text.format(steps=ns.launches))
        probe = [ns.python, "-m", "tapewatch.probe", "--device", "cpu", "--events", str(work / "events.jsonl"),
                 "--", str(script)]
        plain = [ns.python, str(script)]
        peak_rss_mb(plain, env)  # compile the kernels once, outside the measurement
        a, b = [], []
        for _ in range(ns.repeat):
            a.append(peak_rss_mb(probe, env))
            b.append(peak_rss_mb(plain, env))
        ratio = statistics.median(x / y for x, y in zip(a, b))
        ratios.append(ratio)
        print("%-12s %14.1f %14.1f %7.3f" % (name, statistics.median(a), statistics.median(b), ratio))
    print("worst ratio: %.3f (target <= 1.5)" % max(ratios))
    return 0


if __name__ == "__main__":
    sys.exit(main())
