"""Settings: the accepted envelopes, validation, per-folder resolution, and
invalid values reported with window/showMessage (the server keeps going)."""

from __future__ import annotations

import sys

import pytest
from lsprotocol import types
from pytest_lsp import client_capabilities
from tapewatch.lsp.settings import Settings, parse, unwrap

from .lsp_helpers import initialize, run, run_diagnostics, wait_for, write


def test_envelopes():
    inner = {"device": "cuda:0"}
    assert unwrap({"settings": inner}) == inner
    assert unwrap({"settings": {"tapewatch": inner}}) == inner
    assert unwrap({"tapewatch": inner}) == inner
    assert unwrap(inner) == inner
    assert unwrap(None) == {}


def test_defaults_and_valid_values(tmp_path):
    assert parse({}) == (Settings(), [])
    assert Settings().interpreter == sys.executable and Settings().timeout == 300.0
    s, problems = parse({"interpreter": ".venv/bin/python", "device": "cuda:1", "timeout": 5, "cwd": "sub",
                         "args": ["--steps", "3"], "env": {"SEED": "1"}, "runOnSave": True, "lint": False},
                        folder=str(tmp_path))
    assert problems == []
    assert s.interpreter == str(tmp_path / ".venv/bin/python")
    assert s.cwd == str(tmp_path / "sub")
    assert (s.device, s.timeout, s.args, s.env, s.run_on_save, s.lint) == ("cuda:1", 5.0, ("--steps", "3"),
                                                                          {"SEED": "1"}, True, False)
    assert parse({"interpreter": "python3"})[0].interpreter == "python3"  # found on PATH at run time


@pytest.mark.parametrize("raw", [
    {"timeout": -1}, {"timeout": "10"}, {"timeout": True}, {"timeout": float("nan")},
    {"device": "cuda 0; rm -rf"}, {"device": 3}, {"args": "--steps 3"}, {"args": [1]},
    {"env": ["A=1"]}, {"env": {"A": 1}}, {"env": {"1A": "x"}}, {"runOnSave": "yes"}, {"lint": 0},
    {"interpreter": 42}, {"cwd": ["x"]},
])
def test_invalid_values_fall_back_to_defaults(raw):
    settings, problems = parse(raw)
    assert len(problems) == 1 and problems[0].startswith("tapewatch.")
    defaults = Settings()
    assert (settings.timeout, settings.device, settings.args, settings.run_on_save, settings.lint,
            settings.interpreter, settings.cwd) == (defaults.timeout, defaults.device, defaults.args,
                                                    defaults.run_on_save, defaults.lint, defaults.interpreter,
                                                    defaults.cwd)


@pytest.mark.timeout(30)
async def test_invalid_settings_are_shown_and_the_server_keeps_serving(lsp):
    await initialize(lsp, {"timeout": "soon", "device": "cuda:0"})
    await wait_for(lambda: lsp.messages)
    message = lsp.messages[0]
    assert message.type == types.MessageType.Warning
    assert "tapewatch.timeout" in message.message and "default" in message.message
    lsp.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"tapewatch": {"args": "not a list"}}))
    await wait_for(lambda: len(lsp.messages) == 2)
    assert "tapewatch.args" in lsp.messages[1].message
    assert await lsp.protocol.send_request_async("tapewatch/tapeGraph", {"uri": "file:///x.py"}) is None


@pytest.mark.timeout(30)
async def test_workspace_configuration_per_folder(lsp, tmp_path):
    """Pulled per folder: a folder's value wins over the window's."""
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    lsp.set_configuration({"tapewatch": {"interpreter": "/no/such/python-a"}}, scope_uri=a.as_uri())
    await lsp.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        workspace_folders=[types.WorkspaceFolder(uri=a.as_uri(), name="a"),
                           types.WorkspaceFolder(uri=b.as_uri(), name="b")],
        initialization_options={"settings": {"interpreter": "/no/such/python-window"}}))
    script_a = write(a / "s.py", "print(1)\n")
    script_b = write(b / "s.py", "print(1)\n")
    for script, expected in ((script_a, "python-a"), (script_b, "python-window")):
        for _ in range(50):  # the pull is answered shortly after `initialized`
            summary = await run(lsp, script.as_uri())
            message = run_diagnostics(lsp, script.as_uri())[0].message
            if expected in message:
                break
        assert summary["status"] == "failed" and expected in message, message
