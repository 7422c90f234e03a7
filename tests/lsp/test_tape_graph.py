"""``tapewatch/tapeGraph``: null before a run, then the last run's tapes with
launch nodes at the lines of their ``wp.launch`` calls, and the lines that called
the helper making each launch (``calls``)."""

from __future__ import annotations

import shutil

import pytest

from tapewatch.lsp.tape_graph import resolve_calls

from .lsp_helpers import EXAMPLES, as_dict, initialize, markers, open_doc, run

TAPE_GRAPH = "tapewatch/tapeGraph"


def line_containing(path, text):
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


@pytest.mark.timeout(60)
async def test_tape_graph_of_the_last_run(lsp, tmp_path):
    # A folder of its own: no kept run of the script there to restore on open.
    client = lsp
    await initialize(client, {}, folder=tmp_path)
    path = tmp_path / "pingpong_helper.py"
    shutil.copy(EXAMPLES / "pingpong_helper.py", path)
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
    # Each integrate launch was made by a call of simulate_step() at line 54 or 55: the calling line.
    callers = [line_containing(path, "simulate_step(a, velocity, b)"), line_containing(path, "simulate_step(b, velocity, a)")]
    calls = [n["calls"] for n in launches if n["label"] == "integrate"]
    assert {c[0]["line"] for c in calls} == set(callers)
    assert all(c[0]["path"] == str(path) and c[0]["function"] == "simulate_step" and c[0]["column"] == 9 for c in calls)
    assert [n["calls"] for n in launches if n["label"] == "height_loss"] == [[]]  # launched by the script itself
    assert [n["location"]["line"] for n in launches if n["label"] == "height_loss"] == [loss_line]
    assert all(n["location"]["path"] == str(path) for n in launches)
    # Findings are linked to nodes both ways.
    finding_ids = {f["id"] for f in graph["findings"]}
    linked = {fid for n in tape["nodes"] for fid in n["finding_ids"]}
    assert linked == finding_ids
    ids = {n["id"] for n in tape["nodes"]}
    assert all(e["source"] in ids and e["target"] in ids for e in tape["edges"])


def test_calls_are_resolved_only_where_the_line_calls_the_function(tmp_path):
    helper, script = tmp_path / "helpers.py", tmp_path / "main.py"
    helper.write_text("def run(s):\n    step(s)\n")
    script.write_text("import helpers\n\nhelpers.run(1)\n")
    files = [str(script), str(helper)]
    cache = {}
    # "step() at line 2": line 2 of main.py is empty, line 2 of helpers.py calls step(.
    assert resolve_calls(["step() at line 2", "run() at line 3"], files, cache) == [
        {"path": str(helper), "line": 2, "column": 5, "function": "step"},
        {"path": str(script), "line": 3, "column": 9, "function": "run"},
    ]
    # A name that resolves nowhere ends the chain; odd names are never guessed at.
    assert resolve_calls(["nowhere() at line 1", "run() at line 3"], files, cache) == []
    assert resolve_calls(["<lambda>() at line 3"], files, cache) == []
    assert resolve_calls(["run() at line 99"], files, cache) == []
