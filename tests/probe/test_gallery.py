"""Every gallery program gives exactly the findings its markers name.

``examples/gallery`` holds several programs per bug class, in varied shapes
(helper modules, methods, loops, structs, ``@wp.func``s), and correct
look-alikes that must stay quiet.  ``# expect: TWnnn`` marks a warning or
error of a verification run (its static lints included), ``# note: TWnnn``
an information finding, ``# lint: TWnnn`` what the lints alone find; helper modules (``_*.py``)
carry the markers of the lines they hold (``expect[prog]: TWnnn`` for one
program only).  Warp's stale-read notes (TW107)
depend on the Warp version and are checked elsewhere.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import EXAMPLES, WARP_PYTHONS, probe_run

GALLERY = EXAMPLES / "gallery"
PROGRAMS = sorted(p.name for p in GALLERY.glob("*.py") if not p.name.startswith("_"))
# ``expect[prog_a,prog_b]: TWnnn`` in a helper module: only for those programs.
_MARK = re.compile(r"\b(expect|note|lint)(?:\[([\w,]+)\])?:\s*(TW\d{3})")


def wanted(script: Path):
    """{(file, code, line)} for warnings/errors and for information, from the program and its helpers."""
    files = [script] + sorted(GALLERY.glob("_*.py"))
    imported = set(re.findall(r"^\s*(?:from|import)\s+(_\w+)", script.read_text(), re.M))
    marks = {"expect": set(), "note": set(), "lint": set()}
    for path in files:
        if path != script and path.stem not in imported:
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            for kind, only, code in _MARK.findall(line):
                if not only or script.stem in only.split(","):
                    marks[kind].add((path.name, code, number))
    return marks


def _shape(program: str) -> tuple:
    """What a program's run must show: its codes (not lines) and whether it checks launches."""
    marks = wanted(GALLERY / program)
    return (frozenset(c for _, c, _ in marks["expect"]), frozenset(c for _, c, _ in marks["note"]),
            "tapewatch-test: --check-launches" in (GALLERY / program).read_text())


def _runs():
    """Every program on the newest Warp; on the oldest, the first program of each shape (every code
    and every check once), which keeps the version seams tested at a third of the cost."""
    newest, *older = WARP_PYTHONS
    seen: set = set()
    for program in PROGRAMS:
        yield pytest.param(newest.values[0], program, marks=newest.marks, id="%s-%s" % (newest.id, program))
        if _shape(program) in seen:
            continue
        seen.add(_shape(program))
        for old in older:
            yield pytest.param(old.values[0], program, marks=old.marks, id="%s-%s" % (old.id, program))


@pytest.mark.parametrize("python, program", list(_runs()))
def test_gallery_program(python, program):
    script = GALLERY / program
    text = script.read_text()
    result = probe_run(script, python, check_launches="tapewatch-test: --check-launches" in text)
    assert result.outcome in ("ok", "raised"), result.stderr_tail
    assert not result.incomplete, [f.message for f in result.findings if f.code == "TW910"]
    marks = wanted(script)
    expect, note = marks["expect"], marks["note"]
    got = {(Path(f.location.path).name, f.code, f.location.line) for f in result.findings
           if f.severity in ("warning", "error")}
    info = {(Path(f.location.path).name, f.code, f.location.line) for f in result.findings
            if f.severity == "information" and f.code != "TW107"}
    detail = [(Path(f.location.path).name, f.code, f.location.line, f.severity, f.message[:160])
              for f in result.findings]
    assert got == expect, detail
    assert info == note, detail
    if program.startswith("correct_"):
        assert not got
    if "tapewatch-test: --check-launches" in text:
        checks = [e for e in result.events if e["event"] == "launch_check"]
        assert checks and all(e["status"] in ("pass", "fail") for e in checks), checks


def test_gallery_lints():
    """The static lints find what the ``# lint:`` markers name, and nothing else among the TW3xx codes
    the markers use."""
    from tapewatch.lint import lint_source

    for path in sorted(GALLERY.glob("*.py")):
        marks = wanted(path)["lint"]
        found = {(path.name, f.code, f.location.line) for f in lint_source(path.read_text(), str(path))}
        mine = {m for m in marks if m[0] == path.name}
        assert mine <= found, (path.name, found)


def test_kinks_are_seen_and_not_called_wrong(python):
    """The bilinear lookup on cell edges really disagrees with central differences at some samples:
    the check must call those non-smooth, not failures."""
    result = probe_run(GALLERY / "correct_kinks_clamp_interp.py", python, check_launches=True)
    checks = {e["kernel"]: e for e in result.events if e["event"] == "launch_check"}
    assert checks["advect"]["nonsmooth"] > 0 and checks["advect"]["status"] == "pass"
    assert checks["clamp_energy"]["nonsmooth"] > 0
    assert result.launch_checks["failed"] == 0
