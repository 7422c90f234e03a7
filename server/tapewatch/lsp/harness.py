"""The FD harness in the editor: ``tapewatch.generateHarness`` and its code action.

The code action ("Generate FD harness", kind ``refactor.fdHarness``) is
offered on a ``with wp.Tape()`` line, on a ``tape.backward(...)`` line and on
every Tapewatch diagnostic.  The command calls the same engine as
``tapewatch harness`` (``tapewatch.harness.generate``) with what the last
run recorded (tape graphs name arrays allocated in helpers), writes the
file next to the script under a free name and opens it with
``window/showDocument``.  Verification runs pick the harness up by itself
(``runs``).
"""

from __future__ import annotations

import asyncio
import os
import re
from typing import Any, Dict, List

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.uris import from_fs_path

from ..harness.generate import generate
from . import uris
from .code_actions import CodeActionsFeature
from .runs import RunsFeature
from .settings import SettingsFeature
from .server import Feature, TapewatchServer

GENERATE_HARNESS = "tapewatch.generateHarness"
KIND = types.CodeActionKind.Refactor + ".fdHarness"
TITLE = "Generate FD harness (finite-difference check of this script)"
# Lines where a user asks "is this gradient right?": the tape and its backward.
_TAPE_LINE = re.compile(r"^\s*with\s+[^:#]*(\bTape\s*\(|\b\w*tape\w*\b)|\.backward\s*\(", re.IGNORECASE)


class HarnessFeature(Feature):
    name = "harness"

    async def generate(self, *args: Any) -> Dict[str, Any]:
        uri = args[0] if args and isinstance(args[0], str) else None
        path = uris.to_path(uri) if uri else None
        if path is None or not os.path.isfile(path):
            raise JsonRpcInvalidParams("%s expects [uri] of a saved Python file" % GENERATE_HARNESS)
        settings, _ = self.server.require(SettingsFeature).for_path(path)
        runs = self.server.get_feature(RunsFeature)
        last = runs.last_result(uri) if runs is not None and uri is not None else None
        tapes = last["result"].tapes if last else ()
        loop = asyncio.get_running_loop()
        # Picking the form starts the user's Python (to ask its Warp): not on the event loop.
        written = await loop.run_in_executor(None, lambda: generate(path, settings.interpreter, tapes=tapes))
        target = from_fs_path(written)
        self.server.log("tapewatch: wrote the FD harness %s" % written, types.MessageType.Info)
        if self.server.supports("window.show_document.support"):
            await self.server.window_show_document_async(
                types.ShowDocumentParams(uri=target, take_focus=True))
        else:
            self.server.show("Tapewatch wrote %s" % written, types.MessageType.Info)
        return {"path": written, "uri": target}


def _action(uri: str, diagnostics: List[types.Diagnostic]) -> types.CodeAction:
    return types.CodeAction(
        title=TITLE,
        kind=KIND,
        diagnostics=diagnostics or None,
        command=types.Command(title=TITLE, command=GENERATE_HARNESS, arguments=[uri]),
    )


def on_diagnostic(params: types.CodeActionParams, diagnostic: types.Diagnostic) -> List[Any]:
    data = diagnostic.data if isinstance(diagnostic.data, dict) else {}
    script_uri = data.get("script_uri") or params.text_document.uri
    return [_action(script_uri, [diagnostic])]


def on_range(server: TapewatchServer, params: types.CodeActionParams) -> List[Any]:
    text = server.open_text(params.text_document.uri)
    if text is None:
        return []
    lines = text.splitlines()
    first, last = params.range.start.line, params.range.end.line
    if any(_TAPE_LINE.search(lines[n]) for n in range(first, min(last, len(lines) - 1) + 1) if n < len(lines)):
        return [_action(params.text_document.uri, [])]
    return []


def setup(server: TapewatchServer) -> HarnessFeature:
    feature = server.add_feature(HarnessFeature(server))
    server.command(feature.name, GENERATE_HARNESS)(feature.generate)
    actions = server.get_feature(CodeActionsFeature)
    if actions is not None:
        actions.add_provider("fd harness", on_diagnostic)
        actions.add_range_provider("fd harness", lambda params: on_range(server, params))
    return feature
