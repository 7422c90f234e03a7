"""Accuracy on an evaluation set of planted-bug programs and correct look-alikes.

    python bench/bench_accuracy.py [SET_DIR ...] [--python PATH] [-j N]

Each set (default: every folder under ``bench/accuracy/``) was written by
someone who had not read Tapewatch's code: in a bug program the comment
``# expect: <class>`` sits on the line a user must change (in the program or
a ``_helper.py`` it imports), and a correct program starts with
``# correct: ...``.  Every program's ground truth was measured against
central finite differences (the set's ``MANIFEST.md`` and ``_verify/``).

For each program this runs ``tapewatch check --format json`` and counts:

- a **hit**: a warning or error whose code belongs to the marked class, on
  the marked line of the marked file;
- a **miss**: no such finding (the findings it did give are printed);
- a **false positive**: a correct program with any warning or error.

Prints one line per program and the totals.  Information findings never
count either way.  Sets are kept out of the test suite on purpose: they
measure, they are not tuned to.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# A planted class -> the codes that report it.
CLASSES = {
    "overwrite": {"TW101", "TW102", "TW103", "TW104", "TW105", "TW306"},
    "untaped_write": {"TW106", "TW107"},
    "requires_grad": {"TW201"},
    "missing_zero": {"TW202", "TW209"},
    "retain_grad": {"TW203"},
    "seeding": {"TW204"},
    "grad_read": {"TW205"},
    "atomic_replay": {"TW206", "TW308", "TW209"},
    "truncation": {"TW207"},
    "inplace_op": {"TW301", "TW104"},
    "component_reassign": {"TW302"},
    "dynamic_loop": {"TW303"},
    "nonfinite": {"TW403", "TW304"},
    "custom_adjoint": {"TW404", "TW307"},
    "adjoint_disabled": {"TW305", "TW405"},
    "ring_buffer": {"TW101", "TW102", "TW104"},
    "record_cmd": {"TW207"},
    "host_mutation": {"TW106", "TW107", "TW101", "TW102", "TW103"},
    "graph_capture": {"TW202", "TW101", "TW102", "TW103", "TW105", "TW209"},
    "fixed_point": {"TW208"},
    # PyTorch's boundary: the torch checks, and the mechanisms they meet there (a re-entrant backward's TW202,
    # a Function's seed that ignores PyTorch's incoming gradient, TW204, a tensor PyTorch refilled, TW106)
    "torch_interop": {"TW210", "TW211", "TW212", "TW213", "TW214", "TW202", "TW204", "TW106"},
}
# Classes whose finding is information by design (what the program computes is differentiated right; what
# it reports is not what was differentiated): an information finding of the class on the line is a hit.
INFORMATION_HITS = {"fixed_point"}
MARK = re.compile(r"#\s*expect:\s*(\w+)")


def marks(program: Path):
    """``[(file, line, class)]`` in the program and the ``_helpers`` it imports."""
    out = []
    text = program.read_text()
    files = [program] + [program.parent / (m + ".py")
                         for m in re.findall(r"^\s*(?:from|import)\s+(_\w+)", text, re.M)]
    for path in files:
        if path.exists():
            for number, line in enumerate(path.read_text().splitlines(), start=1):
                for cls in MARK.findall(line):
                    out.append((path, number, cls))
    return out


def check(program: Path, python: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "server") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([python, "-m", "tapewatch.cli", "check", "--format", "json", "--no-evidence", "-q",
                           "--python", python, str(program)], capture_output=True, text=True, env=env, timeout=600)
    try:
        return json.loads(proc.stdout)
    except ValueError:
        return {"findings": [], "error": (proc.stdout + proc.stderr)[-300:]}


def score(program: Path, report: dict):
    """``(hits, misses, false_positive, lines)`` for one program."""
    problems = [f for f in report.get("findings", []) if f.get("severity") in ("warning", "error")]
    lines = []
    if report.get("error"):
        lines.append("    (no report: %s)" % report["error"].replace("\n", " "))
    if program.read_text().startswith("# correct"):
        if problems:
            lines.insert(0, "FP   %s" % program.name)
            lines += ["    %s %s:%s %s" % (f["code"], Path(f["path"]).name, f["line"], f["message"][:100])
                      for f in problems]
            return 0, 0, True, lines
        return 0, 0, False, ["ok   %s (quiet)" % program.name] + lines
    hits = misses = 0
    for path, line, cls in marks(program):
        pool = report.get("findings", []) if cls in INFORMATION_HITS else problems
        found = [f for f in pool if f["code"] in CLASSES.get(cls, ()) and f.get("line") == line
                 and f.get("path") and os.path.samefile(f["path"], path)]
        if found:
            hits += 1
            lines.append("HIT  %s:%d %s (%s)" % (path.name, line, cls, found[0]["code"]))
        else:
            misses += 1
            lines.append("MISS %s:%d %s" % (path.name, line, cls))
            lines += ["    got %s %s:%s %s" % (f["code"], Path(f["path"]).name if f.get("path") else "?",
                                               f.get("line"), f["message"][:100]) for f in report.get("findings", [])]
    return hits, misses, False, lines


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("sets", nargs="*", type=Path)
    parser.add_argument("--python", default=sys.executable, help="interpreter with Warp")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ns = parser.parse_args()
    sets = ns.sets or sorted(p for p in (ROOT / "bench" / "accuracy").iterdir() if p.is_dir() and not p.name.startswith("_"))
    total_hits = total_misses = total_fp = bugs = correct = 0
    for folder in sets:
        programs = sorted(p for p in folder.glob("*.py") if not p.name.startswith("_"))
        with concurrent.futures.ThreadPoolExecutor(max_workers=ns.jobs) as pool:
            reports = list(pool.map(lambda p: check(p, ns.python), programs))
        print("== %s (%d programs)" % (folder.name, len(programs)))
        for program, report in zip(programs, reports):
            hits, misses, fp, lines = score(program, report)
            total_hits, total_misses, total_fp = total_hits + hits, total_misses + misses, total_fp + fp
            if program.read_text().startswith("# correct"):
                correct += 1
            else:
                bugs += 1
            print("\n".join(lines))
    print("hits %d of %d marked bugs (%d programs), misses %d; false positives %d of %d correct programs"
          % (total_hits, total_hits + total_misses, bugs, total_misses, total_fp, correct))
    return 0


if __name__ == "__main__":
    sys.exit(main())
