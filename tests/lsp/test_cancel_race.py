"""A ``$/cancelRequest`` that arrives after its request was answered (a run cancelled as it ends) is an
ordinary race: the server does not warn about it (pygls would: "Cancel notification for unknown
message id", which VS Code showed in the output channel)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from .lsp_helpers import ROOT


def frame(obj) -> bytes:
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


@pytest.mark.timeout(60)
def test_a_late_cancel_is_not_a_warning():
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None,
                                                                       "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "tapewatch/tapeGraph", "params": {"uri": "file:///nowhere.py"}},
        {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 2}},  # answered already (or about to be)
        {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 12345}},  # never sent
        {"jsonrpc": "2.0", "id": 3, "method": "shutdown", "params": None},
        {"jsonrpc": "2.0", "method": "exit", "params": None},
    ]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT / "server"), os.environ.get("PYTHONPATH")])))
    out = subprocess.run([sys.executable, "-m", "tapewatch", "lsp"], input=b"".join(frame(m) for m in messages),
                         capture_output=True, env=env, cwd=str(ROOT), timeout=50)
    assert b'"id": 3' in out.stdout.replace(b'"id":3', b'"id": 3'), out.stdout[-500:]  # it answered shutdown
    assert b"unknown message id" not in out.stderr, out.stderr.decode(errors="replace")[-2000:]
    assert b"unknown message id" not in out.stdout
