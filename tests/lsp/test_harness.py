"""The FD harness from the editor: the code action, the command that writes
and opens the file, and verification runs that include its numbers."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lsprotocol import types

from .lsp_helpers import EXAMPLES, open_doc, run, run_diagnostics
from .test_code_actions import actions_for


def at_line(line: int) -> types.Range:
    return types.Range(start=types.Position(line=line, character=0), end=types.Position(line=line, character=0))


async def actions_on_line(client, uri, line):
    params_range = at_line(line)
    diag = types.Diagnostic(range=params_range, message="m", source="other")
    return [a for a in (await actions_for(client, uri, [diag]) or [])]


@pytest.mark.timeout(120)
async def test_generate_harness_from_the_backward_line_and_run_it(client, tmp_path):
    script = tmp_path / "missing requires_grad é.py"
    shutil.copy(EXAMPLES / "missing_requires_grad.py", script)
    uri = open_doc(client, script)
    lines = script.read_text().splitlines()
    backward = next(i for i, line in enumerate(lines) if "tape.backward(" in line)
    tape_line = next(i for i, line in enumerate(lines) if line.startswith("with tape"))

    # Offered on the backward line and the tape line, not on an ordinary line.
    assert [a["kind"] for a in await actions_on_line(client, uri, backward)] == ["refactor.fdHarness"]
    assert [a["kind"] for a in await actions_on_line(client, uri, tape_line)] == ["refactor.fdHarness"]
    assert await actions_on_line(client, uri, 0) == []

    command = (await actions_on_line(client, uri, backward))[0]["command"]
    written = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=command["command"], arguments=command["arguments"]))
    harness = tmp_path / "missing requires_grad é_fdcheck.py"
    assert written["path"] == str(harness) and harness.exists()
    assert client.shown_documents[-1].uri == written["uri"]

    # A second request never overwrites: it picks a free name.
    again = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=command["command"], arguments=command["arguments"]))
    assert again["path"].endswith("_fdcheck_2.py")

    # Verification now runs the (newest) harness too: its numbers land on the script.
    summary = await run(client, uri)
    assert summary["status"] == "findings"
    diags = run_diagnostics(client, uri)
    codes = sorted((d.code, d.range.start.line + 1) for d in diags)
    param_line = next(i for i, line in enumerate(lines, 1) if "drag_coefficient = wp.array" in line)
    forces_line = next(i for i, line in enumerate(lines, 1) if line.startswith("forces = wp.zeros"))
    # The probe points at the cause (TW201), the harness measures the damage (TW401).
    assert codes == [("TW201", forces_line), ("TW401", param_line)]  # one FD failure, one diagnostic
    [fd] = [d for d in diags if d.code == "TW401"]
    assert [r.location.range.start.line + 1 for r in fd.related_information] == [backward + 1]
    assert all("AD 0 vs FD" in d.message for d in diags if d.code == "TW401")

    # One run, one set: the harness run alone replaces the FD layer; the script's next run
    # replaces both; without the harness its numbers are gone.
    harness_uri = open_doc(client, Path(again["path"]))
    # The harness file shows its own result: one line on its header, the verdict related.
    [own] = run_diagnostics(client, harness_uri)
    assert (own.code, own.range.start.line) == ("TW401", 0)
    assert own.message.startswith("This harness's result: 1 of 1 parameter FAIL (`drag_coefficient` FAIL).")
    assert [r.location.range.start.line + 1 for r in own.related_information] == [param_line]
    await run(client, harness_uri)
    assert sorted(d.code for d in run_diagnostics(client, uri)) == ["TW201", "TW401"]
    assert [d.code for d in run_diagnostics(client, harness_uri)] == ["TW401"]  # run directly: the same line
    await run(client, uri)
    assert sorted(d.code for d in run_diagnostics(client, uri)) == ["TW201", "TW401"]
    harness.unlink()
    Path(again["path"]).unlink()
    await run(client, uri)
    assert sorted(d.code for d in run_diagnostics(client, uri)) == ["TW201"]


@pytest.mark.timeout(120)
async def test_per_launch_adjoint_check_during_verification(lsp):
    """TW404 comes with runVerification by default; the checkLaunches setting turns it off."""
    from .lsp_helpers import initialize, markers

    await initialize(lsp, {})
    path = EXAMPLES / "wrong_custom_adjoint.py"
    uri = open_doc(lsp, path)
    await run(lsp, uri)
    assert [(d.code, d.range.start.line + 1) for d in run_diagnostics(lsp, uri)] == [
        ("TW404", markers(path)["expect:TW404"][0])]

    lsp.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"tapewatch": {"checkLaunches": False}}))
    await run(lsp, uri)
    assert run_diagnostics(lsp, uri) == []
