"""Code actions: "Show documentation" on Tapewatch diagnostics, answered
quickly while a verification run is going on."""

from __future__ import annotations

import asyncio
import os
import time

import pytest
from lsprotocol import types

from .lsp_helpers import EXAMPLES, as_dict, open_doc, run, run_diagnostics, wait_for, write


async def actions_for(client, uri, diags):
    """textDocument/codeAction, results as plain objects.

    lsprotocol's converter reads any code action that has a ``command`` as
    a bare ``Command`` (it only checks for the key), so the client here
    leaves the result unstructured.
    """
    params = types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=diags[0].range if diags else types.Range(start=types.Position(line=0, character=0),
                                                       end=types.Position(line=0, character=0)),
        context=types.CodeActionContext(diagnostics=diags))
    client.protocol.get_result_type = lambda method: None  # instance attribute shadows the method
    try:
        return as_dict(await client.protocol.send_request_async(types.TEXT_DOCUMENT_CODE_ACTION, params))
    finally:
        del client.protocol.get_result_type


@pytest.fixture(autouse=True, scope="module")
def docs_dir(tmp_path_factory):
    """A catalogue with one page, TW102; the servers these tests start inherit it."""
    docs = tmp_path_factory.mktemp("docs")
    (docs / "TW102.md").write_text("# TW102\n")
    old = os.environ.get("TAPEWATCH_DOCS")
    os.environ["TAPEWATCH_DOCS"] = str(docs)
    yield docs
    if old is None:
        os.environ.pop("TAPEWATCH_DOCS", None)
    else:
        os.environ["TAPEWATCH_DOCS"] = old


@pytest.mark.timeout(60)
async def test_show_documentation(client, docs_dir):
    uri = open_doc(client, EXAMPLES / "copy_overwrite.py")
    await run(client, uri)
    diags = run_diagnostics(client, uri)
    assert [d.code for d in diags] == ["TW102"]
    assert diags[0].code_description.href == (docs_dir / "TW102.md").as_uri()
    actions = await actions_for(client, uri, diags)
    assert [(a["title"], a["kind"]) for a in actions] == [
        ("Show documentation for TW102", "quickfix"),
        ("Generate FD harness (finite-difference check of this script)", "refactor.fdHarness")]
    assert actions[0]["diagnostics"][0]["code"] == "TW102"
    command = actions[0]["command"]
    await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=command["command"], arguments=command["arguments"]))
    assert client.shown_documents[-1].uri == (docs_dir / "TW102.md").as_uri()

    # No page, no documentation action; foreign diagnostics are ignored.
    other = types.Diagnostic(range=diags[0].range, message="x", source="pyright", code="TW102")
    no_page = types.Diagnostic(range=diags[0].range, message="x", source="tapewatch", code="TW999")
    actions = await actions_for(client, uri, [other, no_page])
    assert [a["kind"] for a in actions] == ["refactor.fdHarness"]


@pytest.mark.timeout(60)
async def test_code_actions_answer_fast_during_a_run(client, tmp_path):
    script = write(tmp_path / "busy.py",
                   "import time\nfor i in range(250):\n    print('tick', i)\n    time.sleep(0.01)\n")
    uri = open_doc(client, script)
    diag = types.Diagnostic(range=types.Range(start=types.Position(line=1, character=0),
                                              end=types.Position(line=1, character=3)),
                            message="m", source="tapewatch", code="TW101")
    task = asyncio.ensure_future(run(client, uri))
    await wait_for(lambda: any("tick" in m.message for m in client.log_messages), timeout=30)
    latencies = []
    while not task.done() and len(latencies) < 100:
        t0 = time.perf_counter()
        await actions_for(client, uri, [diag])
        latencies.append(time.perf_counter() - t0)
        await asyncio.sleep(0.01)
    await task
    latencies.sort()
    assert len(latencies) >= 20
    assert latencies[int(len(latencies) * 0.95) - 1] < 0.25, latencies
