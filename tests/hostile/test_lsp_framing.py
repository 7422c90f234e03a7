"""Hostile bytes on the language server's stdin: it refuses, recovers, answers, and leaves on time."""

from __future__ import annotations

import subprocess
import time

import pytest

from lsp_stdio import RawClient


@pytest.fixture
def raw():
    client = RawClient()
    client.initialize()
    yield client
    client.close()


def test_an_oversized_length_is_refused_and_the_server_keeps_answering(raw):
    raw.send(raw=b"Content-Length: 1099511627776\r\n\r\n{}")
    raw.send({"jsonrpc": "2.0", "id": 1, "method": "shutdown"})
    assert raw.response(1)["result"] is None
    # Logged to the client once it is connected (stderr only before initialize); the
    # notification may trail the response it was logged before.
    deadline = time.time() + 10
    while not any("refused a message" in text for text in raw.log) and time.time() < deadline:
        time.sleep(0.05)
    assert any(text.startswith("tapewatch: refused a message of 1099511627776 bytes") for text in raw.log), raw.log


def test_wrong_lengths_are_survived(raw):
    raw.send({"jsonrpc": "2.0", "id": 1, "method": "tapewatch/tapeGraph", "params": {"uri": "file:///x.py"}},
             length=500)  # too long: it swallows the next message until the input stalls
    raw.send({"jsonrpc": "2.0", "id": 2, "method": "tapewatch/tapeGraph", "params": {"uri": "file:///y.py"}})
    assert raw.response(1) and raw.response(2)
    raw.send({"jsonrpc": "2.0", "id": 3, "method": "tapewatch/tapeGraph", "params": {"uri": "file:///z.py"}},
             length=20)  # too short: the rest is garbage up to the next header
    raw.send({"jsonrpc": "2.0", "id": 4, "method": "shutdown"})
    assert raw.response(4)["result"] is None


def test_malformed_params_are_answered_invalid_params(raw):
    raw.send({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {"textDocument": 5}})
    assert raw.response(1)["error"]["code"] == -32602
    raw.send({"jsonrpc": "2.0", "id": 2, "method": "tapewatch/tapeGraph"})
    assert raw.response(2)["error"]["code"] == -32602


def test_exit_without_shutdown_during_a_run_leaves_at_once_with_status_1(raw, tmp_path):
    script = tmp_path / "slow.py"
    script.write_text("import time\nimport warp as wp\ntime.sleep(120)\n")
    raw.send({"jsonrpc": "2.0", "id": 1, "method": "workspace/executeCommand",
              "params": {"command": "tapewatch.runVerification", "arguments": [script.as_uri()]}})
    time.sleep(2.0)  # the run is going
    started = time.time()
    raw.send({"jsonrpc": "2.0", "method": "exit"})
    status = raw.proc.wait(10)
    assert status == 1 and time.time() - started < 2.0
    time.sleep(0.3)
    out = subprocess.run(["pgrep", "-f", str(script)], capture_output=True, text=True)
    assert out.stdout.strip() == ""


def test_a_script_in_a_missing_folder_is_tw909_not_an_internal_error(raw):
    raw.send({"jsonrpc": "2.0", "id": 1, "method": "workspace/executeCommand",
              "params": {"command": "tapewatch.runVerification", "arguments": ["file:///nonexistent/dir/x.py"]}})
    result = raw.response(1)["result"]
    assert result["status"] == "failed" and result["outcome"] == "script-not-found"


@pytest.mark.parametrize("body", [
    b'{"jsonrpc": "2.0", "id": 1, "method": "shutdown", "params": "\xff\xfe"}',  # not UTF-8
    b"[" * 100_000 + b"]" * 100_000,  # nested past any parser's depth
    b'{"jsonrpc": "2.0", "id": 1, "method": "x", "params": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    b'{"jsonrpc": "2.0", "id": 1, "method": ',  # cut short
], ids=["not-utf8", "deep-array", "deep-params", "truncated"])
def test_an_unreadable_body_is_answered_parse_error_with_a_null_id(raw, body):
    # JSON-RPC 2.0: a message that cannot be parsed gets a -32700 error whose id is null (its own id
    # cannot be trusted); the server keeps answering what follows.
    raw.send(raw=b"Content-Length: %d\r\n\r\n" % len(body) + body)
    answer = raw.response(None)
    assert answer["id"] is None and answer["error"]["code"] == -32700, answer
    raw.send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    assert raw.response(2)["result"] is None


@pytest.mark.parametrize("how", ["exit", "kill"])
def test_the_lint_process_leaves_with_the_server(raw, tmp_path, how):
    path = tmp_path / "k.py"
    path.write_text("import warp as wp\n", encoding="utf-8")
    raw.notify("textDocument/didOpen", {"textDocument": {"uri": path.as_uri(), "languageId": "python",
                                                          "version": 1, "text": path.read_text()}})
    deadline = time.time() + 10
    while not (children := _children(raw.proc.pid)) and time.time() < deadline:
        time.sleep(0.05)
    assert children, "no lint process"
    if how == "exit":
        raw.send({"jsonrpc": "2.0", "method": "exit"})
        raw.proc.wait(10)
    else:
        raw.proc.kill()  # SIGKILL: nothing of the server runs; the child sees its input end
        raw.proc.wait(10)
    deadline = time.time() + 10
    while any(_alive(pid) for pid in children) and time.time() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in children)


def _children(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


def _alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(") ", 1)[1][:1] not in ("Z", "X")
    except OSError:
        return False
