"""``tapewatch/tapeGraph``: null before a run, then the last run's tapes with
launch nodes at the lines of their ``wp.launch`` calls."""

from __future__ import annotations

import pytest

from .lsp_helpers import EXAMPLES, as_dict, markers, open_doc, run

TAPE_GRAPH = "tapewatch/tapeGraph"


def line_containing(path, text):
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


@pytest.mark.timeout(60)
async def test_tape_graph_of_the_last_run(client):
    path = EXAMPLES / "pingpong_helper.py"
    uri = open_doc(client, path)
    assert await client.protocol.send_request_async(TAPE_GRAPH, {"uri": uri}) is None

    summary = await run(client, uri)
    graph = as_dict(await client.protocol.send_request_async(TAPE_GRAPH, {"uri": uri}))
    assert graph["uri"] == uri
    assert len(graph["tapes"]) == summary["tapes"] >= 1
    assert [f["code"] for f in graph["findings"]] == ["TW101", "TW101"]
    tape = graph["tapes"][0]
    # Data only: each client draws the nodes and edges its own way.
    assert "dot" not in tape and tape["nodes"] and tape["edges"]
    launches = [n for n in tape["nodes"] if n["kind"] == "launch"]
    integrate_line = markers(path)["expect:TW101"][0]
    loss_line = line_containing(path, "wp.launch(height_loss")
    assert {n["location"]["line"] for n in launches if n["label"] == "integrate"} == {integrate_line}
    assert [n["location"]["line"] for n in launches if n["label"] == "height_loss"] == [loss_line]
    assert all(n["location"]["path"] == str(path) for n in launches)
    # Findings are linked to nodes both ways.
    finding_ids = {f["id"] for f in graph["findings"]}
    linked = {fid for n in tape["nodes"] for fid in n["finding_ids"]}
    assert linked == finding_ids
    ids = {n["id"] for n in tape["nodes"]}
    assert all(e["source"] in ids and e["target"] in ids for e in tape["edges"])
