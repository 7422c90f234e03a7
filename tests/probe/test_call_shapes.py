"""No finding is lost, whatever shape the call that reaches a launch has.

``corpus/call_shapes.py`` reaches a write-after-read through bound, class
and static methods, ``*args``/``**kwargs``, keyword-only arguments,
``functools.partial``, lambdas, comprehensions, decorators, closures,
generators, properties, arrays in dicts and dataclasses rebound between
frames, opaque argument lists, all-keyword launches, ``launch_tiled``, a
helper module, ``getattr`` and a copy through a method.  Each section must
give its finding at its marked line, with no internal error, and every
warning Warp's own tracker prints for the program must be among the
findings.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from conftest import markers
from tapewatch.runner import RunRequest, run_probe
from warp_warnings import missing_from, warnings_of

CORPUS = Path(__file__).parent / "corpus"


def test_every_call_shape_keeps_its_finding(python):
    script = CORPUS / "call_shapes.py"
    result = asyncio.run(run_probe(RunRequest(script=str(script), python=python)))
    assert result.outcome == "ok", result.stderr_tail
    assert not result.incomplete, [f.message for f in result.findings if f.code == "TW910"]
    got = sorted({(Path(f.location.path).name, f.code, f.location.line) for f in result.findings})
    want = sorted([("call_shapes.py", code.split(":")[1], line)
                   for code, lines in markers(script).items() if code.startswith("expect:") for line in lines]
                  + [("call_shapes_helpers.py", "TW101", line)
                     for line in markers(CORPUS / "call_shapes_helpers.py")["expect:TW101"]])
    assert got == want
    for f in result.findings:
        assert f.location is not None and f.data.get("array"), f
        assert f.severity == "warning"


def test_every_warp_warning_is_a_finding(python):
    script = CORPUS / "call_shapes.py"
    warned = warnings_of(python, script)
    assert warned, "the corpus must make Warp's tracker warn"
    result = asyncio.run(run_probe(RunRequest(script=str(script), python=python)))
    assert missing_from(warned, result.findings) == []
