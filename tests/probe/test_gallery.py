"""Every gallery program gives exactly the findings its markers name.

``examples/gallery`` holds several programs per bug class, in varied shapes
(helper modules, methods, loops, structs, ``@wp.func``s), and correct
look-alikes that must stay quiet.  ``# expect: TWnnn`` marks a warning or
error, ``# note: TWnnn`` an information finding; helper modules (``_*.py``)
carry the markers of the lines they hold.  Warp's stale-read notes (TW107)
depend on the Warp version and are checked elsewhere.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from conftest import EXAMPLES
from tapewatch.runner import RunRequest, run_probe

GALLERY = EXAMPLES / "gallery"
PROGRAMS = sorted(p.name for p in GALLERY.glob("*.py") if not p.name.startswith("_"))
_MARK = re.compile(r"\b(expect|note):\s*(TW\d{3})")


def wanted(script: Path):
    """{(file, code, line)} for warnings/errors and for information, from the program and its helpers."""
    files = [script] + sorted(GALLERY.glob("_*.py"))
    imported = set(re.findall(r"^\s*(?:from|import)\s+(_\w+)", script.read_text(), re.M))
    expect, note = set(), set()
    for path in files:
        if path != script and path.stem not in imported:
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            for kind, code in _MARK.findall(line):
                (expect if kind == "expect" else note).add((path.name, code, number))
    return expect, note


@pytest.mark.parametrize("program", PROGRAMS)
def test_gallery_program(python, program):
    script = GALLERY / program
    text = script.read_text()
    result = asyncio.run(run_probe(RunRequest(
        script=str(script), python=python, check_launches="tapewatch-test: --check-launches" in text)))
    assert result.outcome in ("ok", "raised"), result.stderr_tail
    assert not result.incomplete, [f.message for f in result.findings if f.code == "TW910"]
    expect, note = wanted(script)
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
