"""Static lints (TW3xx) of open Python documents, on open and on change.

``tapewatch.lint.lint_source(source, path)`` is pure AST analysis; it runs
in the lint process (``lint_worker``) ``DEBOUNCE`` seconds after the last
change of a document: a burst of typing is linted once, on its last text.
A lint asked for while an older one of the same document waits replaces
it, and a result for a text that changed meanwhile is dropped (a newer lint
is already scheduled).  Each open document keeps a ``ChunkParser`` there, so
a lint after an edit re-parses only the top-level chunks the edit touched.
The ``lint`` setting turns the layer on and off.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable, Dict, List, Optional

from . import uris
from .convert import Entry, LineSource, entry_of
from .diagnostics import DiagnosticsFeature
from .lint_worker import LintWorker, lint_or_syntax_error
from .project_config import ProjectConfigFeature
from .settings import SettingsFeature
from .server import Feature, TapewatchServer

DEBOUNCE = 0.3


class LintsFeature(Feature):
    name = "lints"

    def __init__(self, server: TapewatchServer, debounce: float = DEBOUNCE):
        super().__init__(server)
        self.debounce = debounce
        self._timers: Dict[str, asyncio.TimerHandle] = {}
        self.worker = LintWorker()

    def initialized(self) -> None:
        self.worker.start()

    # -- hooks --------------------------------------------------------------

    def document_open(self, uri: str) -> None:
        self.schedule(uri, delay=0.0)

    def change_arrived(self, uri: str) -> None:
        # The debounce counts from the change's arrival, not from after the other features moved and
        # republished their diagnostics for it (several ms on a large file).  The timer cannot fire
        # before the whole notification is applied: that happens in this same turn of the loop.
        self.schedule(uri)

    def document_close(self, uri: str) -> None:
        self._cancel(uri)
        self.worker.forget(uri)
        path = uris.to_path(uri)
        if path:
            self._diagnostics().set_lints(path, [])

    def settings_changed(self) -> None:
        for uri in list(self.server.workspace.text_documents):
            self.schedule(uri, delay=0.0)

    async def shutdown(self) -> None:
        for uri in list(self._timers):
            self._cancel(uri)
        await self.worker.close()

    # -- linting ------------------------------------------------------------

    def _diagnostics(self):
        return self.server.get_feature(DiagnosticsFeature)

    def _cancel(self, uri: str) -> None:
        handle = self._timers.pop(uri, None)
        if handle is not None:
            handle.cancel()

    def schedule(self, uri: str, delay: Optional[float] = None) -> None:
        self._cancel(uri)
        loop = asyncio.get_running_loop()
        self._timers[uri] = loop.call_later(self.debounce if delay is None else delay, self._fire, uri)

    def _fire(self, uri: str) -> None:
        self._timers.pop(uri, None)
        self.server.spawn(self.name, "lint", self.lint(uri))

    def _wanted(self, uri: str) -> Optional[str]:
        path = uris.to_path(uri)
        doc = self.server.document(uri)
        if path is None or doc is None:
            return None
        if doc.language_id == "python" or path.endswith((".py", ".pyi", ".pyw")):
            return path
        return None

    async def lint(self, uri: str) -> None:
        path = self._wanted(uri)
        if path is None:
            return
        diagnostics = self._diagnostics()
        settings, _ = self.server.require(SettingsFeature).for_path(path)
        project = self.server.get_feature(ProjectConfigFeature)
        config = project.for_path(path) if project is not None else None
        if not settings.lint or (config is not None and config.skipped_by_a_walk(path)):
            diagnostics.set_lints(path, [])  # [tool.tapewatch] exclude: as `tapewatch lint` skips it
            return
        doc = self.server.document(uri)
        version, text = doc.version, doc.source
        findings = await self.worker.lint(uri, text, path)
        if findings is None:
            return  # a newer lint of this document replaced it before it started
        doc = self.server.document(uri)
        if doc is None or doc.version != version or doc.source != text:
            return  # changed meanwhile: the next lint is scheduled
        if config is not None:
            findings = config.apply(findings)  # [tool.tapewatch] select/ignore
        entries = lint_entries(findings, path, uri, text, self.server.client_units)
        diagnostics.set_lints(path, entries)


__all__ = ["LintsFeature", "lint_entries", "lint_or_syntax_error"]


def lint_entries(findings: List[Any], path: str, uri: str, text: str, units: Callable[[str], int]) -> List[Entry]:
    key = uris.key(path)
    same: Dict[str, bool] = {}  # path spelling -> is it this file (asked for every finding and related location)

    def this_file(p: str) -> bool:
        known = same.get(p)
        if known is None:
            known = same[p] = uris.key(p) == key
        return known

    def buffer(p: str) -> Optional[str]:
        return text if this_file(p) else None

    src = LineSource(buffers=buffer, units=units)
    return [entry_of(f, path, uri, src, kind="lint", exists=this_file) for f in findings]


def setup(server: TapewatchServer) -> LintsFeature:
    return server.add_feature(LintsFeature(server))
