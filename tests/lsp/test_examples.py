"""runVerification on the examples: diagnostics where the marker comments say.

``# expect: TWnnn`` is the line of a diagnostic with that code; every
``# reader`` / ``# alloc:`` / ``# caller:`` / ``# compiled-by`` line is a
related location of one of them.  Codes a plain verification run does not
produce are left out here: static lints (TW3xx, checked in the lint layer)
and the FD-harness / opt-in checks.  Examples whose markers are all of that
kind are covered by the probe and harness tests; ``correct_*`` examples
must give no run diagnostics at all.
"""

from __future__ import annotations

import pytest
from lsprotocol import types

from .lsp_helpers import EXAMPLES, diagnostics, markers, open_doc, run

# Findings of `tapewatch.generateHarness` harnesses (TW404 comes with runVerification by default).
NOT_FROM_A_PLAIN_RUN = {"TW400", "TW401", "TW402", "TW406"}


def expectations(path):
    marks = markers(path)
    expected = {(k.split(":", 1)[1], line) for k, lines in marks.items() if k.startswith("expect:") for line in lines}
    run_codes = {(c, n) for c, n in expected if not c.startswith("TW3") and c not in NOT_FROM_A_PLAIN_RUN}
    lint_codes = {(c, n) for c, n in expected if c.startswith("TW3")}
    return marks, run_codes, lint_codes


EXAMPLE_FILES = [p for p in sorted(EXAMPLES.glob("*.py"))
                 if p.stem.startswith("correct") or any(expectations(p)[1:])]


@pytest.mark.timeout(90)
@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=[p.stem for p in EXAMPLE_FILES])
async def test_example_diagnostics(client, path):
    uri = open_doc(client, path)
    summary = await run(client, uri)
    marks, expected, expected_lints = expectations(path)

    diags = diagnostics(client, uri)
    runtime = [d for d in diags if d.data and d.data.get("kind") == "run"]
    got = {(d.code, d.range.start.line + 1) for d in runtime}
    assert got == expected, [(d.code, d.range.start.line + 1, d.message) for d in runtime]
    lints = {(d.code, d.range.start.line + 1) for d in diags if d.data and d.data.get("kind") == "lint"}
    assert expected_lints <= lints
    assert summary["uri"] == uri
    assert summary["status"] == ("findings" if expected else "ok")
    assert summary["findings"] == len(runtime)
    assert summary["lints"] >= len(expected_lints)

    lines = path.read_text().splitlines()
    related = set()
    for d in runtime:
        assert d.source == "tapewatch"
        assert d.severity in (types.DiagnosticSeverity.Warning, types.DiagnosticSeverity.Error)
        assert d.data["code"] == d.code and d.data["script_uri"] == uri and d.data["finding_id"]
        text = lines[d.range.start.line]
        # the call or statement, never the line's indentation
        assert text[d.range.start.character:d.range.start.character + 1].strip()
        for r in d.related_information or []:
            assert r.location.uri == uri
            related.add(r.location.range.start.line + 1)
    for key in ("reader", "alloc", "caller", "compiled-by"):
        for line in marks.get(key, []):
            assert line in related, (key, line, sorted(related))

    finished = client.run_finished[-1]
    assert finished.uri == uri and finished.summary.status == summary["status"]
