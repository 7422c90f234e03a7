"""The core isolates features: a failing hook, request or setup is logged and
answered with an error; the other features go on."""

from __future__ import annotations

import asyncio

import pytest
from pygls.exceptions import JsonRpcInternalError
from tapewatch.lsp import server as core


class Boom(core.Feature):
    name = "boom"

    def document_open(self, uri):
        raise RuntimeError("boom")


class Counter(core.Feature):
    name = "counter"

    def __init__(self, server):
        super().__init__(server)
        self.opened = []

    def document_open(self, uri):
        self.opened.append(uri)


def test_a_failing_hook_does_not_stop_the_others():
    srv = core.TapewatchServer()
    errors = []
    srv.report_error = lambda feature, what, exc: errors.append((feature, what, str(exc)))
    srv.add_feature(Boom(srv))
    counter = srv.add_feature(Counter(srv))
    srv._dispatch("document_open", "file:///x.py")
    assert counter.opened == ["file:///x.py"]
    assert errors == [("boom", "document_open", "boom")]


def test_a_failing_request_answers_an_error():
    srv = core.TapewatchServer()
    errors = []
    srv.report_error = lambda feature, what, exc: errors.append(feature)

    def handler(params):
        raise KeyError("missing")

    guarded = srv._guard("demo", "demo/request", handler)
    with pytest.raises(JsonRpcInternalError, match="demo/request"):
        guarded({})
    assert errors == ["demo"]

    async def async_handler(params):
        raise ValueError("bad")

    with pytest.raises(JsonRpcInternalError):
        asyncio.run(srv._guard("demo", "demo/async", async_handler)({}))


def test_a_feature_that_fails_to_set_up_is_left_out(monkeypatch):
    monkeypatch.setattr(core, "FEATURE_MODULES", core.FEATURE_MODULES + ("no_such_feature",))
    srv = core.create_server()
    assert "runs" in srv.features and "startup-errors" in srv.features
    assert "no_such_feature" in srv.features["startup-errors"].errors[0]


def test_an_error_reaches_the_client_log_once_with_its_traceback(capsys):
    from lsprotocol import types
    from tapewatch.lsp.log import install

    srv = core.TapewatchServer()
    sent = []
    srv.window_log_message = sent.append
    handler = install(srv)
    try:
        raise ValueError("bad value")
    except ValueError as exc:
        srv.report_error("demo", "a request", exc)
    assert sent == [] and "bad value" in capsys.readouterr().err  # before initialize: stderr
    handler.connected = True
    try:
        raise ValueError("worse value")
    except ValueError as exc:
        srv.report_error("demo", "a request", exc)
    [params] = sent
    assert params.type == types.MessageType.Error
    assert "demo failed in a request: ValueError: worse value" in params.message and "Traceback" in params.message
    assert capsys.readouterr().err == ""  # once: not on stderr as well
