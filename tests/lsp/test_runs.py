"""Runs through the server: cancellation, timeouts, broken interpreters and
scripts, floods, odd paths, and diagnostics replaced by the next run."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp.client import make_test_lsp_client

from .lsp_helpers import EXAMPLES, alive, as_dict, initialize, lines_of, markers, open_doc, run, wait_for, write
from .lsp_helpers import run_diagnostics as diagnostics

# With the flag file present: start a grandchild, write both pids, sleep.
# (The grandchild does not hold the run's stdout/stderr: the runner waits
# for those pipes to close, see the report on runner.py.)
SLOW = """\
import os, subprocess, sys, time
print("started", flush=True)
if os.path.exists({flag!r}):
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    tmp = {pidfile!r} + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d %d" % (os.getpid(), child.pid))
    os.replace(tmp, {pidfile!r})
    time.sleep(600)
print("quick run done")
"""


def slow_script(tmp_path: Path, name: str = "slow.py") -> tuple:
    pidfile = tmp_path / (name + ".pids")
    flag = tmp_path / (name + ".flag")
    flag.write_text("sleep")
    script = write(tmp_path / name, SLOW.format(pidfile=str(pidfile), flag=str(flag)))
    return script, pidfile, flag


def no_tape(summary) -> bool:
    """The run of a script that records no tape went to its end: not cancelled, not verified (TW912)."""
    if not isinstance(summary, dict):
        summary = {"status": summary.status, "failure": {"code": summary.failure.code} if summary.failure else None}
    return summary["status"] == "failed" and (summary.get("failure") or {}).get("code") == "TW912"


async def pids_of(pidfile: Path) -> list:
    await wait_for(pidfile.exists, timeout=30)
    return [int(x) for x in pidfile.read_text().split()]


async def still_answers(client) -> None:
    """A cheap request answered promptly: the server is alive and not blocked."""
    t0 = time.monotonic()
    result = await asyncio.wait_for(
        client.protocol.send_request_async("tapewatch/tapeGraph", {"uri": "file:///nowhere.py"}), 5)
    assert result is None
    assert time.monotonic() - t0 < 1.0


@pytest.mark.timeout(60)
async def test_cancel_request_kills_the_process_tree(client, tmp_path):
    script, pidfile, _ = slow_script(tmp_path)
    uri = open_doc(client, script)
    task = asyncio.ensure_future(run(client, uri, token="tok-cancel", msg_id="run-slow"))
    pids = await pids_of(pidfile)
    assert all(alive(p) for p in pids)

    client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="run-slow"))
    t0 = time.monotonic()
    with pytest.raises(JsonRpcException):  # RequestCancelled
        await task
    await wait_for(lambda: not any(alive(p) for p in pids), timeout=1.0)
    assert time.monotonic() - t0 < 1.5

    await wait_for(lambda: client.run_finished, timeout=5)
    assert client.run_finished[-1].summary.status == "cancelled"
    reports = client.progress_reports["tok-cancel"]
    assert isinstance(reports[0], types.WorkDoneProgressBegin) and reports[0].cancellable
    await wait_for(lambda: isinstance(client.progress_reports["tok-cancel"][-1], types.WorkDoneProgressEnd))
    await still_answers(client)


@pytest.mark.timeout(60)
async def test_progress_cancel_kills_the_run(client, tmp_path):
    script, pidfile, _ = slow_script(tmp_path)
    uri = open_doc(client, script)
    task = asyncio.ensure_future(run(client, uri))  # no token: the server creates one
    pids = await pids_of(pidfile)
    tokens = [t for t, reports in client.progress_reports.items()
              if reports and isinstance(reports[0], types.WorkDoneProgressBegin)]
    assert len(tokens) == 1
    assert "slow.py" in client.progress_reports[tokens[0]][0].message

    client.protocol.notify(types.WINDOW_WORK_DONE_PROGRESS_CANCEL, types.WorkDoneProgressCancelParams(token=tokens[0]))
    summary = await asyncio.wait_for(task, 5)
    assert summary["status"] == "cancelled"
    await wait_for(lambda: not any(alive(p) for p in pids), timeout=1.0)
    end = client.progress_reports[tokens[0]][-1]
    assert isinstance(end, types.WorkDoneProgressEnd) and "cancelled" in end.message
    await still_answers(client)


@pytest.mark.timeout(90)
async def test_second_run_cancels_the_first(client, tmp_path):
    script, pidfile, flag = slow_script(tmp_path)
    uri = open_doc(client, script)
    first = asyncio.ensure_future(run(client, uri))
    pids = await pids_of(pidfile)
    flag.unlink()  # the second run finishes at once
    second = await run(client, uri)
    summary = await asyncio.wait_for(first, 5)
    assert summary["status"] == "cancelled" and "newer run" in summary["reason"]
    assert no_tape(second)  # it ran to its end (it records no tape: TW912)
    assert not any(alive(p) for p in pids)
    assert [f.summary.status for f in client.run_finished] == ["cancelled", "failed"]
    assert any("quick run done" in m.message for m in client.log_messages)


@pytest.mark.timeout(60)
async def test_timeout_setting(client, tmp_path):
    script, pidfile, _ = slow_script(tmp_path)
    uri = open_doc(client, script)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"tapewatch": {"timeout": 3}}))
    t0 = time.monotonic()
    summary = await run(client, uri)
    assert time.monotonic() - t0 < 10
    assert summary["status"] == "failed" and summary["outcome"] == "timeout"
    diags = diagnostics(client, uri)
    assert [d.code for d in diags] == ["TW905"]
    # on the line the script was at when it was stopped (its sleep), not line 1
    sleep_line = next(n for n, text in enumerate(script.read_text().splitlines()) if text.strip() == "time.sleep(600)")
    assert diags[0].range.start.line == sleep_line and diags[0].severity == types.DiagnosticSeverity.Error
    assert not any(alive(p) for p in [int(x) for x in pidfile.read_text().split()])


@pytest.mark.timeout(60)
async def test_interpreter_without_warp(lsp, tmp_path):
    venv = tmp_path / "venv without warp"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    await initialize(lsp, {"interpreter": str(python)})
    uri = open_doc(lsp, EXAMPLES / "copy_overwrite.py")
    summary = await run(lsp, uri)
    assert summary["status"] == "failed"
    assert summary["failure"]["code"] == "TW903" and "warp" in summary["failure"]["message"].lower()
    diags = diagnostics(lsp, uri)
    assert [d.code for d in diags] == ["TW903"]
    assert diags[0].range.start.line == 0
    assert "warp" in diags[0].message.lower()
    devices = as_dict(await lsp.workspace_execute_command_async(types.ExecuteCommandParams(
        command="tapewatch.listDevices", arguments=[uri])))
    assert devices["devices"] == [] and devices.get("error")


@pytest.mark.timeout(60)
async def test_missing_interpreter_and_device(lsp, tmp_path):
    await initialize(lsp, {"interpreter": str(tmp_path / "no such python")})
    script = write(tmp_path / "s.py", "print('hi')\n")
    uri = open_doc(lsp, script)
    summary = await run(lsp, uri)
    assert summary["status"] == "failed"
    assert [d.code for d in diagnostics(lsp, uri)] == ["TW908"]

    lsp.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"tapewatch": {"interpreter": sys.executable, "device": "cuda:99"}}))
    summary = await run(lsp, uri)
    assert summary["status"] == "failed" and summary["failure"]["code"] == "TW904"
    assert "cuda:99" in summary["failure"]["message"]
    assert [d.code for d in diagnostics(lsp, uri)] == ["TW904"]


@pytest.mark.timeout(60)
async def test_syntax_error_script(client, tmp_path):
    script = write(tmp_path / "broken.py", "import warp as wp\n\nx = 1\ndef f(:\n    pass\n")
    uri = open_doc(client, script)
    summary = await run(client, uri)
    assert summary["status"] == "failed"
    diags = diagnostics(client, uri)
    assert [d.code for d in diags] == ["TW902"]
    assert 2 <= diags[0].range.start.line <= 4
    failure = summary["failure"]
    assert failure["code"] == "TW902" and failure["path"] == str(script) and failure["line"] == diags[0].range.start.line + 1
    await still_answers(client)


FLOOD = """\
import os, sys
for i in range(10000):
    print("line", i)
os.write(1, bytes(range(256)) * 64)
os.write(2, b"\\xff\\xfe\\x00garbage\\x1b[31m\\n" * 2000)
sys.stdout.write("x" * 300000 + "\\n")
print("the end")
"""


@pytest.mark.timeout(60)
async def test_output_flood_and_binary(client, tmp_path):
    script = write(tmp_path / "flood.py", FLOOD)
    uri = open_doc(client, script)
    task = asyncio.ensure_future(run(client, uri))
    while not task.done():
        await still_answers(client)
        await asyncio.sleep(0.05)
    summary = task.result()
    assert no_tape(summary) and summary["exit_code"] == 0
    script_output = [m for m in client.log_messages if not m.message.startswith("tapewatch:")]
    assert len(script_output) < 200  # batched
    total = sum(len(m.message) for m in script_output)
    assert total < 5 * 1024 * 1024  # bounded
    text = "\n".join(m.message for m in script_output)
    assert "the end" in text
    assert "\x00" not in text and "\x1b" not in text


@pytest.mark.timeout(90)
async def test_path_with_spaces_and_non_ascii_outside_the_workspace(client, tmp_path):
    folder = tmp_path / "dir with spaces" / "ünïcødé"
    folder.mkdir(parents=True)
    script = folder / "copy über.py"
    shutil.copy(EXAMPLES / "copy_overwrite.py", script)
    uri = open_doc(client, script)
    assert "%20" in uri and "%C3%BC" in uri
    summary = await run(client, uri)
    assert summary["status"] == "findings"
    diags = diagnostics(client, uri)
    assert lines_of(diags) == markers(script)["expect:TW102"]
    assert all(r.location.uri == uri for d in diags for r in d.related_information or [])
    assert any("outside the workspace" in m.message for m in client.log_messages)


def zero_read(tmp_path: Path) -> Path:
    """zero_read_array.py with its launches moved into an imported helper module."""
    helper = write(tmp_path / "physics.py", '''\
import warp as wp


def step_and_clear(step, v0, forces, mass, v1, n, clear):
    wp.launch(step, dim=n, inputs=[v0, forces, mass, 0.01], outputs=[v1])
    if clear:
        forces.zero_()
''')
    source = (EXAMPLES / "zero_read_array.py").read_text(encoding="utf-8")
    source = source.replace(
        "    wp.launch(step, dim=N, inputs=[v0, forces, mass, 0.01], outputs=[v1])  # reader\n"
        "    forces.zero_()  # expect: TW103\n",
        "    physics.step_and_clear(step, v0, forces, mass, v1, N, CLEAR)\n")
    assert "physics.step_and_clear" in source
    source = source.replace("import warp as wp\n", "import warp as wp\n\nimport physics\n\nCLEAR = True\n", 1)
    script = write(tmp_path / "train.py", source)
    return script, helper


@pytest.mark.timeout(90)
async def test_new_run_replaces_diagnostics_in_every_file(client, tmp_path):
    script, helper = zero_read(tmp_path)
    uri = open_doc(client, script)
    helper_uri = helper.as_uri()
    summary = await run(client, uri)
    assert summary["status"] == "findings"
    # The finding is in the imported module, where the overwrite is.
    helper_diags = diagnostics(client, helper_uri)
    assert [(d.code, d.range.start.line + 1) for d in helper_diags] == [("TW103", 7)]
    assert helper_diags[0].data["script_uri"] == uri
    related = {(r.location.uri, r.location.range.start.line + 1) for r in helper_diags[0].related_information}
    assert (helper_uri, 5) in related  # the reader launch
    assert diagnostics(client, uri) == []

    # Fix the script (on disk and in the editor) and run again: everything is cleared.
    fixed = script.read_text(encoding="utf-8").replace("CLEAR = True", "CLEAR = False")
    script.write_text(fixed, encoding="utf-8")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)]))
    summary = await run(client, uri)
    assert summary["status"] == "ok"
    assert diagnostics(client, helper_uri) == []
    assert diagnostics(client, uri) == []


@pytest.mark.timeout(30)
async def test_commands_answer_errors_not_crashes(client, tmp_path):
    with pytest.raises(JsonRpcException, match="saved Python file"):
        await client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="tapewatch.generateHarness", arguments=[(tmp_path / "x.py").as_uri()]))
    with pytest.raises(JsonRpcException, match="save"):
        await client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="tapewatch.runVerification", arguments=["untitled:Untitled-1"]))
    with pytest.raises(JsonRpcException):
        await client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="tapewatch.runVerification", arguments=[]))
    missing = (tmp_path / "gone.py").as_uri()
    summary = await run(client, missing)
    assert summary["status"] == "failed"
    assert [d.code for d in diagnostics(client, missing)] == ["TW909"]
    await still_answers(client)


@pytest.mark.timeout(60)
async def test_list_devices(client):
    devices = as_dict(await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="tapewatch.listDevices", arguments=[])))
    assert "cpu" in devices["devices"]
    assert devices["warp_version"]


@pytest.mark.timeout(60)
async def test_run_on_save_is_opt_in(lsp, tmp_path):
    await initialize(lsp, {"runOnSave": False})
    script = write(tmp_path / "tape.py", "import warp as wp\ntape = wp.Tape()\nprint('ran')\n")
    uri = open_doc(lsp, script)
    lsp.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    await asyncio.sleep(1.0)
    assert lsp.run_finished == []

    lsp.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"tapewatch": {"runOnSave": True}}))
    lsp.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    await wait_for(lambda: lsp.run_finished, timeout=30)
    assert lsp.run_finished[0].uri == uri and no_tape(lsp.run_finished[0].summary)


CRASH = "import os, signal\nprint('about to crash', flush=True)\nos.kill(os.getpid(), signal.SIGSEGV)\n"
GARBAGE = """\
import os
for fd in range(3, 256):  # whatever is open, the private event channel included
    try:
        os.write(fd, b"\\xff\\xfe garbage\\n{not json}\\n")
    except OSError:
        pass
"""


@pytest.mark.timeout(60)
@pytest.mark.parametrize("source,codes", [(CRASH, {"TW906"}), (GARBAGE, {"TW907"})], ids=["crash", "garbage"])
async def test_crash_and_event_garbage(client, tmp_path, source, codes):
    script = write(tmp_path / "bad.py", source)
    uri = open_doc(client, script)
    summary = await run(client, uri)
    got = {d.code for d in diagnostics(client, uri)}
    assert codes <= got, got
    assert summary["status"] in ("failed", "findings")
    await still_answers(client)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("how", ["sigterm", "end-of-input"])
async def test_runs_die_with_the_server(tmp_path, how):
    """Runs live in their own process groups: the server takes them down when it goes."""
    script, pidfile, _ = slow_script(tmp_path)
    client = make_test_lsp_client()
    await client.start_io(sys.executable, "-m", "tapewatch", "lsp")
    try:
        await initialize(client)
        uri = open_doc(client, script)
        task = asyncio.ensure_future(run(client, uri))
        pids = await pids_of(pidfile)
        if how == "sigterm":
            client._server.send_signal(signal.SIGTERM)
        else:
            client._server.stdin.close()
        await asyncio.wait_for(client._server.wait(), 5)
        await wait_for(lambda: not any(alive(p) for p in pids), timeout=2.0)
        task.cancel()
    finally:
        if client._server.returncode is None:
            client._server.kill()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.stop(), 5)


@pytest.mark.timeout(60)
async def test_cwd_args_env_settings(lsp, tmp_path):
    (tmp_path / "work").mkdir()
    await initialize(lsp, {"cwd": str(tmp_path / "work"), "args": ["--steps", "3"], "env": {"TW_TEST": "ünï"}})
    script = write(tmp_path / "show.py", "import os, sys\nprint('ARGS', sys.argv[1:], 'CWD', os.getcwd(), "
                                         "'ENV', os.environ.get('TW_TEST'))\n")
    uri = open_doc(lsp, script)
    assert no_tape(await run(lsp, uri))
    out = "\n".join(m.message for m in lsp.log_messages)
    assert "ARGS ['--steps', '3'] CWD %s ENV ünï" % (tmp_path / "work") in out

    lsp.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"tapewatch": {"cwd": str(tmp_path / "missing")}}))
    assert no_tape(await run(lsp, uri))  # a push replaces the whole section
    assert any("is not a folder" in m.message for m in lsp.messages)
    out = "\n".join(m.message for m in lsp.log_messages)
    assert "ARGS [] CWD %s ENV None" % tmp_path in out  # the script's folder


@pytest.mark.timeout(60)
async def test_a_cancel_while_the_client_accepts_the_progress_token_is_clean(client, tmp_path):
    """The run is cancelled while the server waits for window/workDoneProgress/create;
    the client's late answer must not surface as "Error in server: CANCELLED"."""
    answered = asyncio.Event()
    features = client.protocol.fm.features
    accept = features[types.WINDOW_WORK_DONE_PROGRESS_CREATE]

    async def slow_create(params):
        await asyncio.sleep(1.5)
        answered.set()
        return accept(params)

    features[types.WINDOW_WORK_DONE_PROGRESS_CREATE] = slow_create
    script, _, _ = slow_script(tmp_path)
    uri = open_doc(client, script)
    task = asyncio.ensure_future(run(client, uri, msg_id="run-during-create"))
    await asyncio.sleep(0.5)  # the server is waiting for the token
    client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="run-during-create"))
    with pytest.raises(JsonRpcException):  # RequestCancelled
        await task
    await asyncio.wait_for(answered.wait(), 5)
    await still_answers(client)
    await asyncio.sleep(0.3)  # the late answer has been handled
    errors = [m.message for m in client.messages + client.log_messages
              if "CANCELLED" in m.message or "Error in server" in m.message]
    assert errors == []
    await wait_for(lambda: client.run_finished, timeout=5)
    assert client.run_finished[-1].summary.status == "cancelled"


PARTIAL = """\
import os, time
import numpy as np
import warp as wp

@wp.kernel
def damp(x: wp.array(dtype=float), x_prev: wp.array(dtype=float), x_out: wp.array(dtype=float)):
    i = wp.tid()
    x_out[i] = x[i] * x_prev[i]

x = wp.array(np.linspace(0.0, 1.0, 8, dtype=np.float32), requires_grad=True)
x_prev = wp.array(np.ones(8, dtype=np.float32), requires_grad=True)
x_next = wp.zeros(8, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(damp, dim=8, inputs=[x, x_prev], outputs=[x_next])
    wp.copy(x_prev, x)
tape.backward(grads={x_next: wp.ones(8, dtype=float)})
print("backward done", flush=True)
time.sleep(600)
"""


@pytest.mark.timeout(90)
async def test_a_cancelled_run_keeps_the_findings_it_reported(client, tmp_path):
    script = write(tmp_path / "partial.py", PARTIAL)
    uri = open_doc(client, script)
    task = asyncio.ensure_future(run(client, uri, token="tok-partial"))
    await wait_for(lambda: any("backward done" in m.message for m in client.log_messages), timeout=60)
    await wait_for(lambda: any(isinstance(r, types.WorkDoneProgressReport) and "1 finding so far" in (r.message or "")
                               for r in client.progress_reports["tok-partial"]), timeout=10)
    # The copy's harm is measured at backward() and the finding comes again, revised: still one finding.
    assert not any("2 findings" in (getattr(r, "message", None) or "") for r in client.progress_reports["tok-partial"])
    client.protocol.notify(types.WINDOW_WORK_DONE_PROGRESS_CANCEL,
                           types.WorkDoneProgressCancelParams(token="tok-partial"))
    summary = await asyncio.wait_for(task, 10)
    assert summary["status"] == "cancelled" and summary["findings"] == 1
    assert summary["seconds"] > 0
    assert lines_of(diagnostics(client, uri), "TW102") == [16]
    end = client.progress_reports["tok-partial"][-1]
    assert isinstance(end, types.WorkDoneProgressEnd) and "1 finding so far" in end.message


@pytest.mark.timeout(90)
async def test_clear_diagnostics_withdraws_run_findings(client, tmp_path):
    script = tmp_path / "copy_overwrite.py"
    shutil.copy(EXAMPLES / "copy_overwrite.py", script)
    uri = open_doc(client, script)
    await run(client, uri)
    assert "TW102" in [d.code for d in diagnostics(client, uri)]
    cleared = as_dict(await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="tapewatch.clearDiagnostics", arguments=[uri])))
    assert cleared["cleared"] >= 1
    assert [d.code for d in diagnostics(client, uri) if not d.code.startswith("TW3")] == []
    assert await client.protocol.send_request_async("tapewatch/tapeGraph", {"uri": uri}) is None
    # Without an argument: every script's.
    await run(client, uri)
    assert "TW102" in [d.code for d in diagnostics(client, uri)]
    await client.workspace_execute_command_async(types.ExecuteCommandParams(command="tapewatch.clearDiagnostics"))
    assert "TW102" not in [d.code for d in diagnostics(client, uri)]
