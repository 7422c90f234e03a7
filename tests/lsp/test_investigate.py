"""Bisect and Compare with previous run, from the editor."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lsprotocol import types

from .lsp_helpers import EXAMPLES, as_dict, initialize, open_doc, run, run_diagnostics

PROGRAMS = Path(__file__).resolve().parents[1] / "harness" / "programs"


async def command(client, name, *arguments, token=None):
    if token is not None:
        client.progress_reports.setdefault(token, [])
    return as_dict(await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=name, arguments=list(arguments), work_done_token=token)))


@pytest.mark.timeout(300)
async def test_bisect_publishes_the_first_diverging_step(lsp, tmp_path):
    await initialize(lsp, {}, folder=tmp_path)
    script = tmp_path / "late_bug.py"
    shutil.copy(PROGRAMS / "late_bug.py", script)
    uri = open_doc(lsp, script)
    out = await command(lsp, "tapewatch.bisect", uri, token="tok-bisect")
    [f] = out["findings"]
    assert f["code"] == "TW410" and f["data"]["first_divergent"] == 5
    launch = 1 + next(i for i, line in enumerate(script.read_text().splitlines()) if "wp.launch(advance" in line)
    assert [(d.code, d.range.start.line + 1) for d in run_diagnostics(lsp, uri)] == [("TW410", launch)]
    reports = lsp.progress_reports["tok-bisect"]
    assert isinstance(reports[-1], types.WorkDoneProgressEnd)
    assert any(isinstance(r, types.WorkDoneProgressReport) and "steps" in (r.message or "") for r in reports)
    # Clear Diagnostics withdraws the bisection too.
    await command(lsp, "tapewatch.clearDiagnostics", uri)
    assert run_diagnostics(lsp, uri) == []


@pytest.mark.timeout(180)
async def test_compare_with_previous_run_after_a_fix(lsp, tmp_path):
    await initialize(lsp, {"checkLaunches": False}, folder=tmp_path)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    script = tmp_path / "bug.py"
    shutil.copy(EXAMPLES / "missing_requires_grad.py", script)
    uri = open_doc(lsp, script)
    first = await command(lsp, "tapewatch.compareWithPrevious", uri)
    assert first["compared"] is False and "Fewer than two" in first["report"]
    await run(lsp, uri)
    script.write_text(script.read_text().replace("forces = wp.zeros(N, dtype=float)",
                                                 "forces = wp.zeros(N, dtype=float, requires_grad=True)"))
    await run(lsp, uri)
    out = await command(lsp, "tapewatch.compareWithPrevious", uri)
    assert out["compared"] is True
    assert [o["code"] for o in out["fixed"]] == ["TW201"] and out["new"] == []
    assert "0 new, 1 fixed, 0 unchanged" in out["report"]
