"""Code actions on Tapewatch diagnostics.

A registry of providers: each takes the request and one of the client's
Tapewatch diagnostics (its ``data`` carries ``finding_id``, ``code``,
``script_uri``, ``kind`` and the finding's ``data``) and returns code
actions.  Providers must be quick and must not wait on runs: they only read
the diagnostic.  Add one with ``server.get_feature(CodeActionsFeature).add_provider``.

Built in: "Show documentation for TWnnn", which opens the code's page
through the ``tapewatch.showDocumentation`` command (``window/showDocument``).
"""

from __future__ import annotations

import os
from typing import Any, Callable, List, Optional, Sequence, Union

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.uris import to_fs_path

from .convert import SOURCE, doc_href
from .server import Feature, TapewatchServer

SHOW_DOCUMENTATION = "tapewatch.showDocumentation"

Action = Union[types.CodeAction, types.Command]
Provider = Callable[[types.CodeActionParams, types.Diagnostic], Sequence[Action]]


class CodeActionsFeature(Feature):
    name = "code_actions"

    def __init__(self, server: TapewatchServer):
        super().__init__(server)
        self.providers: List[tuple] = []
        self.range_providers: List[tuple] = []

    def add_provider(self, name: str, provider: Provider) -> None:
        self.providers.append((name, provider))

    def add_range_provider(self, name: str, provider: Callable[[types.CodeActionParams], Sequence[Action]]) -> None:
        """Actions that depend on the requested lines, not on a diagnostic."""
        self.range_providers.append((name, provider))

    def code_actions(self, params: types.CodeActionParams) -> Optional[List[Action]]:
        only = params.context.only
        actions: List[Action] = []
        for name, range_provider in self.range_providers:
            try:
                found = range_provider(params)
            except Exception as exc:  # noqa: BLE001
                self.server.report_error(self.name, "code action provider %s" % name, exc)
                continue
            actions.extend(a for a in found or () if _wanted(a, only))
        for diagnostic in params.context.diagnostics:
            if diagnostic.source != SOURCE:
                continue
            for name, provider in self.providers:
                try:
                    found = provider(params, diagnostic)
                except Exception as exc:  # noqa: BLE001 (one provider must not hide the others)
                    self.server.report_error(self.name, "code action provider %s" % name, exc)
                    continue
                for action in found or ():
                    if not _wanted(action, only):
                        continue
                    twin = next((a for a in actions if _same(a, action)), None)
                    if twin is not None:
                        # One "Show documentation for TW101" per request, however many TW101s on the line:
                        # the action lists every diagnostic it answers.
                        if isinstance(twin, types.CodeAction) and isinstance(action, types.CodeAction):
                            merged = list(twin.diagnostics or [])
                            merged += [d for d in action.diagnostics or [] if d not in merged]
                            twin.diagnostics = merged or None
                        continue
                    actions.append(action)
        return actions or None

    async def show_documentation(self, *args: Any) -> Any:
        code = args[0] if args and isinstance(args[0], str) else None
        href = doc_page(code) if code else None
        if href is None:
            raise JsonRpcInvalidParams("no documentation page for %r" % (code,))
        if self.server.supports("window.show_document.support"):
            await self.server.window_show_document_async(
                types.ShowDocumentParams(uri=href, external=False, take_focus=True))
        else:
            self.server.show("Tapewatch %s: %s" % (code, href), types.MessageType.Info)
        return {"uri": href}


def _same(a: Action, b: Action) -> bool:
    if isinstance(a, types.CodeAction) and isinstance(b, types.CodeAction):
        return a.kind == b.kind and a.title == b.title
    return isinstance(a, types.Command) and isinstance(b, types.Command) and a.title == b.title \
        and a.command == b.command and a.arguments == b.arguments


def _wanted(action: Action, only: Optional[Sequence[str]]) -> bool:
    return not only or not isinstance(action, types.CodeAction) or _kind_matches(action.kind, only)


def _kind_matches(kind: Optional[str], only: Sequence[str]) -> bool:
    if kind is None:
        return False
    kind = str(getattr(kind, "value", kind))
    return any(kind == o or kind.startswith(str(getattr(o, "value", o)) + ".") for o in only)


def doc_page(code: str) -> Optional[str]:
    """The page's URI when the page exists."""
    href = doc_href(code)
    if not href:
        return None
    try:
        path = to_fs_path(href)
    except Exception:  # noqa: BLE001
        return None
    return href if path and os.path.isfile(path) else None


def documentation_provider(params: types.CodeActionParams, diagnostic: types.Diagnostic) -> List[Action]:
    code = diagnostic.code if isinstance(diagnostic.code, str) else None
    if not code or doc_page(code) is None:
        return []
    title = "Show documentation for %s" % code
    return [types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        command=types.Command(title=title, command=SHOW_DOCUMENTATION, arguments=[code]),
    )]


def setup(server: TapewatchServer) -> CodeActionsFeature:
    feature = server.add_feature(CodeActionsFeature(server))
    feature.add_provider("documentation", documentation_provider)
    server.handle(feature.name, types.TEXT_DOCUMENT_CODE_ACTION,
                  types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix,
                                                             types.CodeActionKind.Refactor]))(
        feature.code_actions)
    server.command(feature.name, SHOW_DOCUMENTATION)(feature.show_documentation)
    return feature
