"""Every gallery program gives exactly the findings its markers name.

``examples/gallery`` holds several programs per bug class, in varied shapes
(helper modules, methods, loops, structs, ``@wp.func``s), and correct
look-alikes that must stay quiet; every warning Warp's own tracker prints for a
program is among its findings.  ``# expect: TWnnn`` marks a warning or
error of a verification run (its static lints included), ``# note: TWnnn``
an information finding, ``# lint: TWnnn`` what the lints alone find; helper modules (``_*.py``)
carry the markers of the lines they hold (``expect[prog]: TWnnn`` for one
program only).  Warp's stale-read notes (TW107)
depend on the Warp version and are checked elsewhere.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import probe_run
from gallery import GALLERY, runs, wanted
from warp_warnings import missing_from, warnings_of

@pytest.mark.parametrize("python, program", list(runs()))
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
    # Tapewatch ⊇ Warp: every warning Warp's own tracker prints for the program is among the findings.
    launched = {k.get("name") for k in result.kernels}
    assert missing_from(warnings_of(python, script), result.findings, launched) == [], detail
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
