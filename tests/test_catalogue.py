"""Every diagnostic code has a documentation page with the agreed sections,
and the data model round-trips through JSON."""

from __future__ import annotations

from conftest import ROOT
from tapewatch import codes
from tapewatch.model import Finding, GraphEdge, GraphNode, Location, Related, TapeGraph

SECTIONS = ["## What it does", "## Why is this bad", "## Example"]


def test_every_code_has_a_page():
    missing = []
    for code in codes.CODES:
        page = ROOT / "docs" / "diagnostics" / (code + ".md")
        if not page.exists():
            missing.append(code)
            continue
        text = page.read_text()
        assert text.startswith("# %s" % code), page
        for section in SECTIONS:
            assert section in text, (page, section)
    assert missing == []


def test_doc_uri_points_at_the_page():
    uri = codes.doc_uri("TW101")
    assert uri is not None and uri.startswith("file://") and uri.endswith("/docs/diagnostics/TW101.md")


def test_model_round_trip():
    loc = Location("/a b/é.py", 3, 5, 3, 9)
    finding = Finding("TW101", "m", loc, "warning", [Related(Location("/x.py", 1), "r", "reader")], 4, "f1",
                      {"array": "state.q"})
    assert Finding.from_json(finding.to_json()) == finding
    graph = TapeGraph("t1", "tape", "backward", loc,
                      [GraphNode("l1", "launch", "k", loc, None, [], None, "", ["f1"])],
                      [GraphEdge("a1", "l1", "read", "x")])
    assert TapeGraph.from_json(graph.to_json()) == graph
