"""Kept runs in the editor: after a reload the last kept run of an unchanged script is shown again,
marked restored; Compare picks from the kept runs (by default the last one that had findings) and
writes readable times; the harness file shows its own result.

The kept runs are written by ``evidence.keep`` itself (what every run does), so these tests need no Warp."""

from __future__ import annotations

import asyncio
import re

import pytest
from lsprotocol import types

from tapewatch import evidence
from tapewatch.lsp.runs import harness_result
from tapewatch.model import Finding, Location
from tapewatch.runner import RunResult

from .lsp_helpers import as_dict, initialize, open_doc, run, run_diagnostics, wait_for

SCRIPT = "import warp as wp\n\nx = wp.zeros(3, requires_grad=True)\ny = wp.zeros(3)\ntape = wp.Tape()\n"


CLEAN = """\
import warp as wp


@wp.kernel
def square(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * x[i]


x = wp.array([1.0, 2.0], dtype=float, requires_grad=True)
y = wp.zeros(2, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(square, dim=2, inputs=[x], outputs=[y])
tape.backward(grads={y: wp.ones(2, dtype=float)})
print(x.grad.numpy())
"""


def project(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    return script


def keep(script, *findings, seconds=1.5):
    result = RunResult(script=str(script), findings=list(findings), warp_version="1.19.0", device="cpu",
                       seconds=seconds)
    path, why = evidence.keep(result)
    assert path and why is None
    return path


def tw201(script, line=4):
    return Finding(code="TW201", message="`y` needs requires_grad=True", location=Location(str(script), line, 1),
                   severity="warning", id="tw201-y", data={"array": "y"})


async def command(client, name, *arguments):
    return as_dict(await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=name, arguments=list(arguments))))


@pytest.mark.timeout(60)
async def test_the_last_kept_run_of_an_unchanged_script_is_restored_on_open(lsp, tmp_path):
    script = project(tmp_path)
    keep(script)  # an older clean run
    kept = keep(script, tw201(script))
    await initialize(lsp, {}, folder=tmp_path)
    uri = open_doc(lsp, script)
    await wait_for(lambda: lsp.run_finished, timeout=20)
    [note] = [as_dict(n) for n in lsp.run_finished]
    summary = note["summary"]
    assert note["uri"] == uri and summary["status"] == "findings"
    assert summary["counts"]["warning"] == 1 and summary["restored"]["path"] == kept
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", summary["restored"]["readable_time"])
    await wait_for(lambda: run_diagnostics(lsp, uri), timeout=10)
    assert [(d.code, d.range.start.line + 1) for d in run_diagnostics(lsp, uri)] == [("TW201", 4)]
    # The tape graph says it is a restored run (a kept run holds no tapes).
    graph = as_dict(await lsp.protocol.send_request_async("tapewatch/tapeGraph", {"uri": uri}))
    assert graph["tapes"] == [] and graph["restored"]["path"] == kept
    assert [f["code"] for f in graph["findings"]] == ["TW201"]
    # Cleared by the user: reopening the file does not bring the kept run back in this session.
    await command(lsp, "tapewatch.clearDiagnostics", uri)
    assert run_diagnostics(lsp, uri) == []
    lsp.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    open_doc(lsp, script)
    await asyncio.sleep(1.5)
    assert len(lsp.run_finished) == 1 and run_diagnostics(lsp, uri) == []


@pytest.mark.timeout(60)
async def test_a_changed_script_is_not_restored(lsp, tmp_path):
    script = project(tmp_path)
    keep(script, tw201(script))
    script.write_text(SCRIPT + "# edited since\n")
    await initialize(lsp, {}, folder=tmp_path)
    uri = open_doc(lsp, script)
    # A restore reads one small file: the test above sees it well within this time.
    await asyncio.sleep(1.5)
    assert lsp.run_finished == [] and run_diagnostics(lsp, uri) == []
    assert await lsp.protocol.send_request_async("tapewatch/tapeGraph", {"uri": uri}) is None


@pytest.mark.timeout(60)
async def test_compare_picks_the_last_run_with_findings_by_default_and_any_kept_run_on_request(lsp, tmp_path):
    script = project(tmp_path)
    first = keep(script, tw201(script))
    second = keep(script, tw201(script), Finding(code="TW102", message="m", location=Location(str(script), 5, 1),
                                                 severity="warning", id="tw102", data={"array": "x"}))
    third = keep(script)  # after the fix: clean
    await initialize(lsp, {}, folder=tmp_path)
    uri = open_doc(lsp, script)

    listing = await command(lsp, "tapewatch.listRuns", uri)
    assert [r["path"] for r in listing["runs"]] == [third, second, first]  # newest first
    assert [r["has_findings"] for r in listing["runs"]] == [False, True, True]
    assert all(r["current"] for r in listing["runs"]) and listing["problems"] == []

    # Default: the newest run against the newest earlier run that had findings.
    out = await command(lsp, "tapewatch.compareWithPrevious", uri)
    assert out["before"]["path"] == second and out["after"]["path"] == third
    assert sorted(o["code"] for o in out["fixed"]) == ["TW102", "TW201"] and out["new"] == []
    assert "0 new, 2 fixed, 0 unchanged" in out["report"]
    # Readable times in the report, not ISO strings with microseconds.
    assert out["before"]["readable_time"] in out["report"]
    assert not re.search(r"\d{2}:\d{2}:\d{2}\.\d{6}", out["report"]), out["report"]

    # Any two kept runs, by path.
    out = await command(lsp, "tapewatch.compareWithPrevious", uri, first, second)
    assert [o["code"] for o in out["new"]] == ["TW102"] and [o["code"] for o in out["unchanged"]] == ["TW201"]
    with pytest.raises(Exception, match="not a kept run"):
        await command(lsp, "tapewatch.compareWithPrevious", uri, str(tmp_path / "elsewhere.json"))


def test_the_harness_file_carries_its_own_result(tmp_path):
    script, harness = tmp_path / "s.py", tmp_path / "s_fdcheck.py"
    verdicts = [
        Finding(code="TW400", message="PASS", location=Location(str(script), 3, 1), severity="information",
                data={"parameter": "v"}),
        Finding(code="TW401", message="FAIL", location=Location(str(script), 4, 1), severity="error",
                data={"parameter": "damping"}),
    ]
    [f] = harness_result(str(harness), str(script), verdicts)
    assert (f.code, f.severity, f.location.path, f.location.line) == ("TW401", "error", str(harness), 1)
    assert f.message == ("This harness's result: 1 of 2 parameters FAIL (`damping` FAIL, `v` PASS). "
                         "The verdicts are on the parameters in s.py.")
    assert [(r.location.line, r.message) for r in f.related] == [(4, "TW401 FAIL"), (3, "TW400 PASS")]
    [ok] = harness_result(str(harness), str(script), verdicts[:1])
    assert ok.severity == "information" and "every parameter PASS" in ok.message
    assert harness_result(str(harness), str(script), []) == []


@pytest.mark.timeout(120)
async def test_a_run_that_cannot_be_kept_says_why(lsp, tmp_path):
    script = project(tmp_path)
    script.write_text(CLEAN)
    (tmp_path / ".tapewatch").write_text("a file where the folder of kept runs would be\n")
    await initialize(lsp, {"checkLaunches": False, "lint": False}, folder=tmp_path)
    uri = open_doc(lsp, script)
    summary = await run(lsp, uri)
    assert summary["status"] == "ok" and "evidence" not in summary
    assert "evidence_error" in summary and summary["evidence_error"], summary
    assert any("could not be kept" in m.message and summary["evidence_error"] in m.message
               for m in lsp.log_messages), [m.message for m in lsp.log_messages][-5:]
