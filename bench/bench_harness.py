"""FD harness wall time against the least work an FD check needs.

For each example, in one process (kernels already loaded), measures:
  minimum = 2 forward evaluations per sampled element + 1 forward-and-backward,
            each timed here as a replay of the script;
  harness = the generated harness's check (`fdcheck._check`), end to end.
and prints harness / minimum per example and the median (target <= 1.3).

Usage: PYTHONPATH=server python bench/bench_harness.py [--repeat N] [EXAMPLE...]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))

DEFAULT = ["correct_fresh_arrays.py", "tape_per_window.py", "missing_requires_grad.py", "stochastic_forward.py"]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("examples", nargs="*")
    ns = parser.parse_args()
    os.environ.setdefault("WARP_CACHE_PATH", tempfile.mkdtemp(prefix="tw-bench-cache-"))
    import warp as wp

    wp.config.quiet = True
    from tapewatch.probe.fd import fdcheck
    from tapewatch.harness.discover import discover
    from tapewatch.probe.fd.replay import Replayer
    from tapewatch.probe.core.channel import EventChannel

    ratios = []
    print("%-26s %6s %10s %11s %12s %7s" % ("example", "form", "elements", "minimum [s]", "harness [s]", "ratio"))
    for name in ns.examples or DEFAULT:
        workdir = Path(tempfile.mkdtemp(prefix="tw-bench-"))
        script = workdir / name
        shutil.copy(ROOT / "examples" / name, script)
        plan = discover(str(script))
        params = [fdcheck.Parameter(p.name, p.line) for p in plan.params]
        loss = fdcheck.Loss(plan.loss, plan.backward_lines)
        settings = fdcheck.Settings()
        form = fdcheck.resolve_form("auto")
        quiet = contextlib.redirect_stdout(io.StringIO())
        with quiet, contextlib.redirect_stderr(io.StringIO()):
            # Warm-up: compile/load the kernels once, as the harness's own first replay does.
            fdcheck._check(EventChannel(None), str(workdir / "h.py"), str(script), params, loss, settings, [], None)
            minimum, harness = [], []
            for _ in range(ns.repeat):
                replayer = Replayer(str(script), [fdcheck.Parameter(p.name, p.line) for p in plan.params])
                started = time.perf_counter()
                reference = replayer.run("reference")
                t_ref = time.perf_counter() - started
                sampled = sum(min(v.size, settings.max_inputs_per_var) for v in reference.values.values())
                started = time.perf_counter()
                for _ in range(4):
                    replayer.run("fd")
                t_fd = (time.perf_counter() - started) / 4
                minimum.append(2 * sampled * t_fd + t_ref)
                fresh = [fdcheck.Parameter(p.name, p.line) for p in plan.params]
                started = time.perf_counter()
                fdcheck._check(EventChannel(None), str(workdir / "h.py"), str(script), fresh, loss, settings, [], None)
                harness.append(time.perf_counter() - started)
        ratio = statistics.median(h / m for h, m in zip(harness, minimum))
        ratios.append(ratio)
        print("%-26s %6s %10d %11.3f %12.3f %7.3f" % (name, form[:6], sampled, statistics.median(minimum),
                                                     statistics.median(harness), ratio))
    print("median ratio: %.3f (target <= 1.3)" % statistics.median(ratios))
    return 0


if __name__ == "__main__":
    sys.exit(main())
