"""Hostile bytes on the language server's stdin: it refuses, recovers, answers, and leaves on time."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


class RawClient:
    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-m", "tapewatch", "lsp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=str(ROOT))
        self.messages: "queue.Queue" = queue.Queue()
        self.log: list = []  # every window/logMessage text, in order
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                c = out.read(1)
                if not c:
                    self.messages.put(None)
                    return
                header += c
            n = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
            message = json.loads(out.read(n))
            if message.get("method") == "window/logMessage":
                self.log.append(message["params"]["message"])
            self.messages.put(message)

    def send(self, obj=None, raw: bytes = b"", length=None):
        if obj is not None:
            body = json.dumps(obj).encode()
            raw = b"Content-Length: %d\r\n\r\n" % (len(body) if length is None else length) + body
        self.proc.stdin.write(raw)
        self.proc.stdin.flush()

    def response(self, msg_id, timeout=15.0):
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                m = self.messages.get(timeout=max(0.05, deadline - time.time()))
            except queue.Empty:
                break
            if m is None:
                break
            if m.get("id") == msg_id and ("result" in m or "error" in m):
                return m
        raise AssertionError("no response to %r" % (msg_id,))

    def initialize(self):
        self.send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                   "params": {"capabilities": {}, "processId": None, "rootUri": None}})
        self.response(0)
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)


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
