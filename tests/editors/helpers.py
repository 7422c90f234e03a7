"""Helpers for the editor tests: real editors running the configs of docs/editors.md.

Each test copies an example into a temporary project (``project``, in
conftest.py), writes the blocks of ``docs/editors.md`` marked
``<!-- test: NAME -->`` into the editor's init files *as documented*, and
runs a headless Neovim or a batch Emacs on a driver script that does what
a user would (open, run, code actions, tape graph, cancel) and writes what
it saw as JSON for the test to check.

The documented command is ``tapewatch lsp``: a ``tapewatch`` wrapper first
on ``PATH`` runs ``python -m tapewatch`` from this checkout with the tests'
interpreter (the one that has Warp), so the blocks run unchanged.
"""

from __future__ import annotations

import json
import re
import subprocess
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "editors.md"
HERE = Path(__file__).resolve().parent

# A script that prints (the log check), leaves its pid (the process-tree
# check) and sleeps until it is cancelled.
SLOW = """\
import os, time
with open({pids!r}, "a") as f:
    f.write("%d\\n" % os.getpid())
print("slow script started", flush=True)
time.sleep(600)
"""

# One TW301 lint (in-place *= on an array element in a kernel), on line 8.
LINTED = """\
import warp as wp


@wp.kernel
def damp(v: wp.array(dtype=float), k: wp.array(dtype=float)):
    tid = wp.tid()
    # the next line is the lint
    v[tid] *= k[tid]
"""
LINT_LINE = 8


def doc_block(name: str) -> str:
    """The code block right after ``<!-- test: NAME -->`` in docs/editors.md."""
    text = DOC.read_text(encoding="utf-8")
    m = re.search(r"<!-- test: %s -->\n(\s*)```\w*\n(.*?)\n\1```" % re.escape(name), text, re.S)
    if not m:
        raise AssertionError("docs/editors.md has no block marked <!-- test: %s -->" % name)
    return textwrap.dedent(m.group(2)) + "\n"


def marker_line(path: Path, marker: str) -> int:
    """1-based line of the first line with ``marker`` (an ``# expect: TW102`` comment...)."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if marker in line:
            return number
    raise AssertionError("%r not in %s" % (marker, path))


def alive(pid: int) -> bool:
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(") ", 1)[1][:1] not in ("Z", "X")
    except (OSError, IndexError):
        return False


@dataclass
class Project:
    """A temporary project with the scripts the drivers open, and the editor's environment."""

    root: Path
    script: Path           # examples/copy_overwrite.py: TW102 on its wp.copy line
    linted: Path           # one TW301 lint
    slow: Path             # sleeps until cancelled
    pids: Path             # the slow script's pids, one per run
    result: Path           # the driver's JSON
    env: Dict[str, str] = field(default_factory=dict)

    def run(self, argv: List[str], timeout: float) -> dict:
        """Runs the editor; returns the driver's JSON with ``seconds`` and the editor's output."""
        start = time.monotonic()
        try:
            proc = subprocess.run(argv, cwd=self.root, env=self.env, stdin=subprocess.DEVNULL,
                                  capture_output=True, text=True, timeout=timeout)
            output = proc.stdout + proc.stderr
        except subprocess.TimeoutExpired as exc:
            output = "timed out after %ss\n%s%s" % (timeout, _text(exc.stdout), _text(exc.stderr))
        if not self.result.exists():
            raise AssertionError("the driver wrote no result:\n" + output[-6000:])
        result = json.loads(self.result.read_text(encoding="utf-8"))
        result["seconds"] = time.monotonic() - start
        result["output"] = output[-6000:]
        return result


def _text(data) -> str:
    return data.decode(errors="replace") if isinstance(data, bytes) else (data or "")


def expected_outline(script: Path) -> List[str]:
    """What the documented graph command shows for examples/copy_overwrite.py: a line per
    tape, one per launch with the arrays it reads and writes and the findings' codes."""
    name = script.name
    return [
        "tape 1 at %s:%d (captured at backward)" % (name, marker_line(script, "tape = wp.Tape()")),
        "  launch damp  (%s:%d)  reads x, x_prev [TW102]  writes x_next  [TW102]" % (
            name, marker_line(script, "# reader")),
        "  launch total  (%s:%d)  reads x_next  writes out" % (name, marker_line(script, "wp.launch(total")),
    ]


def check_cancelled_processes(project: Project) -> None:
    """Both slow runs started, and no process of theirs is left behind."""
    pids = [int(p) for p in project.pids.read_text().split()] if project.pids.exists() else []
    assert len(pids) == 2, "expected two slow runs, got pids %s" % pids
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in pids if alive(pid)], "slow runs still alive after cancel"
