"""Settings: the accepted envelopes, validation, per-folder resolution, and
invalid values reported with window/showMessage (the server keeps going).

The server owns validation: the VS Code client passes values through
(client-vscode/test/settings.test.ts checks its variable expansion), so
the cases below include every one the client used to check itself."""

from __future__ import annotations

import re
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


def test_valid_values_pass_trimmed_and_typed():
    settings, problems = parse({"interpreter": " /usr/bin/python3 ", "device": "cuda:0", "timeout": 30, "cwd": "",
                                "args": ["--steps", "4"], "env": {"A": "1"}, "runOnSave": True, "lint": False})
    assert problems == []
    assert settings == Settings(interpreter="/usr/bin/python3", device="cuda:0", timeout=30.0,
                                args=("--steps", "4"), env={"A": "1"}, run_on_save=True, lint=False)


def test_unset_and_empty_values_mean_the_defaults():
    assert parse({"interpreter": "", "cwd": "  "}) == (Settings(), [])
    assert parse({key: None for key in ("interpreter", "device", "timeout", "cwd", "args", "env", "runOnSave",
                                        "lint", "checkLaunches")}) == (Settings(), [])


# Each invalid value with its key, the reason and what happens instead, as the user sees it.
INVALID = {
    "device": "cuda 0; rm -rf", "timeout": -1, "args": ["ok", 3], "env": {"BAD NAME": "x", "N": 5, "OK": "y"},
    "runOnSave": "yes", "lint": 1, "cwd": 7, "interpreter": 42, "checkLaunches": "on",
}
EXPECTED_PROBLEMS = [
    'tapewatch.interpreter: expected the path of a Python interpreter; using the default',
    'tapewatch.device: "cuda 0; rm -rf" is not a device name such as "cpu" or "cuda:0"; using the default',
    'tapewatch.timeout: expected a number of seconds greater than 0, got -1; using the default',
    'tapewatch.cwd: expected a folder path; using the default',
    'tapewatch.args: expected a list of strings; using the default',
    'tapewatch.env: "BAD NAME" is not a variable name; left out',
    'tapewatch.env: N must be a string; left out',
    'tapewatch.runOnSave: expected true or false; using the default',
    'tapewatch.lint: expected true or false; using the default',
    'tapewatch.checkLaunches: expected true or false; using the default',
]


def test_invalid_values_are_reported_one_by_one_and_dropped():
    settings, problems = parse(INVALID)
    assert settings == Settings(env={"OK": "y"})
    assert problems == EXPECTED_PROBLEMS
    assert all(re.match(r"tapewatch\.\w+: .+; (using the default|left out)$", p) for p in problems)


@pytest.mark.timeout(30)
async def test_every_invalid_value_a_client_pushes_is_shown(lsp):
    """A client that validates nothing (VS Code's passes values through): the server says it all."""
    await initialize(lsp, INVALID)
    await wait_for(lambda: lsp.messages)
    [message] = lsp.messages
    assert message.type == types.MessageType.Warning
    assert message.message == "Tapewatch settings: " + "; ".join(EXPECTED_PROBLEMS)
    # Each one is also logged, to read after the message is gone.
    await wait_for(lambda: all(any(p in m.message for m in lsp.log_messages) for p in EXPECTED_PROBLEMS))


@pytest.mark.timeout(30)
async def test_invalid_pulled_values_are_shown(lsp, tmp_path):
    """workspace/configuration answers are validated like pushed settings."""
    lsp.set_configuration({"tapewatch": {"timeout": "soon"}}, scope_uri=tmp_path.as_uri())
    await initialize(lsp, {}, folder=tmp_path)
    await wait_for(lambda: lsp.messages)
    assert 'tapewatch.timeout: expected a number of seconds greater than 0, got "soon"; using the default' in (
        lsp.messages[0].message)


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
