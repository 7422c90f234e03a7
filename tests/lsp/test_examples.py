"""runVerification on every example: diagnostics where the marker comments say.

``# expect: TWnnn`` is the line of a diagnostic with that code; every
``# reader`` / ``# alloc:`` / ``# caller:`` / ``# compiled-by`` line is a
related location of one of them.  An example without ``expect`` markers
must produce no diagnostics.
"""

from __future__ import annotations

import pytest
from lsprotocol import types

from lsp_helpers import EXAMPLES, diagnostics, markers, open_doc, run

EXAMPLE_FILES = sorted(EXAMPLES.glob("*.py"))


@pytest.mark.timeout(90)
@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=[p.stem for p in EXAMPLE_FILES])
async def test_example_diagnostics(client, path):
    uri = open_doc(client, path)
    summary = await run(client, uri)
    marks = markers(path)
    expected = {(k.split(":", 1)[1], line) for k, lines in marks.items() if k.startswith("expect:") for line in lines}

    diags = diagnostics(client, uri)
    runtime = [d for d in diags if d.data and d.data.get("kind") == "run"]
    got = {(d.code, d.range.start.line + 1) for d in runtime}
    assert got == expected, [(d.code, d.range.start.line + 1, d.message) for d in runtime]
    assert summary["uri"] == uri
    assert summary["status"] == ("findings" if expected else "ok")
    assert summary["findings"] == len(runtime)

    related = set()
    for d in runtime:
        assert d.source == "tapewatch"
        assert d.severity == types.DiagnosticSeverity.Warning
        assert d.data["code"] == d.code and d.data["script_uri"] == uri and d.data["finding_id"]
        assert d.range.start.character > 0  # the call, not the line's indentation start
        for r in d.related_information or []:
            assert r.location.uri == uri
            related.add(r.location.range.start.line + 1)
    for key in ("reader", "alloc", "caller", "compiled-by"):
        for line in marks.get(key, []):
            assert line in related, (key, line, sorted(related))

    finished = client.run_finished[-1]
    assert finished.uri == uri and finished.summary.status == summary["status"]
