"""The diagnostic layers, publishing, and moving diagnostics with edits.

Two layers, merged when a file is published:

- **runs**: per script, the entries of its last verification run, in every
  file the run involved (the script, imported modules...).  A new run of
  the script replaces its entries everywhere; files left with none are
  published empty.
- **lints**: per open document, the static lint entries.

Every content change arrives as a :class:`~.positions.LineEdit` (from the
document that applied it) and moves the entries of its file (and related
locations in it).  Edits made while a run was going on are logged and
replayed onto the run's entries when it finishes, and a document that had
unsaved changes when the run started is mapped from the saved text (which
the run saw) to the buffer by a diff.

Typing must stay cheap however many diagnostics a file has, so an edit only
queues its ``LineEdit``: the queue is applied to the entries (each entry
mapped through every queued edit, one new entry at the end) when something
reads them, and the moved diagnostics are published at most every
``MOVE_PUBLISH_S`` (longer when a publish costs more), not once per edit.
A publish identical to the last one for that file is not sent.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import time
from dataclasses import dataclass, field
from typing import Deque, Dict, List, Optional, Tuple

from lsprotocol import types

from .. import codes
from . import positions, uris
from .convert import Entry, diagnostic_json, moved, moved_through, read_text, structure
from .positions import LineEdit
from .server import Feature, TapewatchServer

EDIT_LOG = 20000  # content changes remembered for runs in progress
MOVE_PUBLISH_S = 0.05  # moved diagnostics go out this long after an edit, at most this often...
MOVE_PUBLISH_SHARE = 0.2  # ...and publishing them takes at most this share of the time while typing
MOVE_PUBLISH_MAX_S = 2.0  # (a file of tens of thousands of diagnostics: the lint's publish comes anyway)


@dataclass
class Snapshot:
    """What a run's entries must be mapped through when it finishes."""

    seq: int
    # path key -> (saved text, buffer text) of documents open at the start
    # whose buffer differed from the file on disk.
    dirty: Dict[str, Tuple[str, str]] = field(default_factory=dict)
    saved: Dict[str, str] = field(default_factory=dict)  # path key -> text on disk


class DiagnosticsFeature(Feature):
    name = "diagnostics"

    def __init__(self, server: TapewatchServer):
        super().__init__(server)
        self.spellings = uris.Spellings()
        self.runs: Dict[str, Dict[str, List[Entry]]] = {}  # script key -> file key -> entries
        self.lints: Dict[str, List[Entry]] = {}  # file key -> entries
        self.paths: Dict[str, str] = {}  # file key -> a path spelled as seen
        self.published: Dict[str, str] = {}  # file key -> uri last published non-empty
        self.seq = 0
        self.log: Deque[Tuple[int, str, LineEdit]] = collections.deque(maxlen=EDIT_LOG)
        self.last_change: Dict[str, int] = {}
        self._pending: List[Tuple[str, LineEdit]] = []  # edits not yet applied to the entries, in order
        self._dirty: set = set()  # file keys whose entries moved since they were last published
        self._sent: Dict[str, Tuple[str, int, List[Entry]]] = {}  # file key -> (uri, spellings, entries) sent
        self._flush: Optional[asyncio.TimerHandle] = None
        self._publish_cost = 0.0  # seconds the last publish of moved diagnostics took

    # -- documents --------------------------------------------------------

    def document_open(self, uri: str) -> None:
        self.spellings.remember(uri)

    def edited(self, uri: str, edit: LineEdit) -> None:
        path = uris.to_path(uri)
        if path is None:
            return
        key = uris.key(path)
        self.seq += 1
        self.log.append((self.seq, key, edit))
        self.last_change[key] = self.seq
        self._pending.append((key, edit))

    def document_change(self, uri: str) -> None:
        if self._flush is None and self._pending:
            delay = min(max(MOVE_PUBLISH_S, self._publish_cost / MOVE_PUBLISH_SHARE), MOVE_PUBLISH_MAX_S)
            self._flush = asyncio.get_running_loop().call_later(delay, self._publish_moved)

    def shutdown(self) -> None:
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None

    def _publish_moved(self) -> None:
        self._flush = None
        started = time.perf_counter()
        self._settle()
        dirty, self._dirty = self._dirty, set()
        for key in dirty:
            self.publish(key)
        self._publish_cost = time.perf_counter() - started

    # -- layers -------------------------------------------------------------

    def _settle(self) -> None:
        """Apply the queued edits to every stored entry they touch (call before reading the layers)."""
        if not self._pending:
            return
        pending, self._pending = self._pending, []
        by_file: Dict[str, List[LineEdit]] = {}
        for key, edit in pending:
            by_file.setdefault(key, []).append(edit)
        layers: List[Dict[str, List[Entry]]] = list(self.runs.values()) + [self.lints]
        for layer in layers:
            for file_key, entries in layer.items():
                out = []
                changed = False
                for e in entries:
                    m = moved_through(e, by_file, uris.key)
                    if m is not e:
                        changed = True
                    if m is not None:
                        out.append(m)
                if changed:
                    layer[file_key] = out
                    self._dirty.add(file_key)

    def snapshot(self) -> Snapshot:
        """Call when a run starts: the sequence number and unsaved buffers."""
        self._settle()
        snap = Snapshot(seq=self.seq)
        for uri, doc in list(self.server.workspace.text_documents.items()):
            path = uris.to_path(uri)
            if path is None:
                continue
            saved = read_text(path)
            if saved is None:
                continue
            key = uris.key(path)
            snap.saved[key] = saved
            if saved != doc.source:
                snap.dirty[key] = (saved, doc.source)
        return snap

    def catch_up(self, entries: List[Entry], key: str, snap: Snapshot) -> List[Entry]:
        """Map entries computed on the text at ``snap`` to the current text."""
        edits: List[LineEdit] = []
        if key in snap.dirty:
            saved, buffer = snap.dirty[key]
            edits.append(positions.from_texts(saved, buffer))
        if self.last_change.get(key, 0) > snap.seq:
            if self.log and self.log[0][0] > snap.seq + 1:
                return []  # history lost: no safe place for them
            edits += [edit for seq, k, edit in self.log if seq > snap.seq and k == key]
        for edit in edits:
            entries = [m for m in (moved(e, key, edit, uris.key) for e in entries) if m is not None]
        return entries

    def catch_up_related(self, entries: List[Entry], own: str, snap: Snapshot) -> List[Entry]:
        """Related locations in other files than ``own`` edited during the run move too."""
        keys = {uris.key(r.span.path) for e in entries for r in e.related} - {own}
        for key in keys:
            edits: List[LineEdit] = []
            if key in snap.dirty:
                edits.append(positions.from_texts(*snap.dirty[key]))
            edits += [edit for seq, k, edit in self.log if seq > snap.seq and k == key]
            for edit in edits:
                out = []
                for e in entries:
                    m = moved(e, key, edit, uris.key)
                    # The primary span is in another file: only related ones move.
                    out.append(m if m is not None else e)
                entries = out
        return entries

    def set_run(self, script: str, entries: List[Entry], snap: Optional[Snapshot] = None) -> None:
        """Replace the entries of ``script``'s last run and publish every file involved."""
        self._settle()  # the new entries are for the current text: only the old ones need the queued edits
        by_file: Dict[str, List[Entry]] = {}
        for e in entries:
            key = uris.key(e.span.path)
            self.paths.setdefault(key, e.span.path)
            by_file.setdefault(key, []).append(e)
        if snap is not None:
            for key in list(by_file):
                fixed = self.catch_up_related(self.catch_up(by_file[key], key, snap), key, snap)
                by_file[key] = fixed
        script_key = uris.key(script)
        old = self.runs.get(script_key, {})
        self.runs[script_key] = by_file
        for key in set(old) | set(by_file):
            self.publish(key)

    def clear_runs(self, script: Optional[str] = None) -> int:
        """Forget the run findings of ``script`` (of every script when None); lints stay, they
        follow the code.  Returns how many diagnostics were withdrawn."""
        # A script's own layers too: its bisection (``path#bisect``).
        self._settle()
        keys = ([k for k in self.runs if k == uris.key(script) or k.startswith(uris.key(script) + "#")]
                if script is not None else list(self.runs))
        withdrawn, files = 0, set()
        for key in keys:
            by_file = self.runs.pop(key, {})
            withdrawn += sum(len(v) for v in by_file.values())
            files |= set(by_file)
        for key in files:
            self.publish(key)
        return withdrawn

    def set_lints(self, path: str, entries: List[Entry]) -> None:
        """The lint entries of ``path``, for its current text (published at once, if they differ)."""
        self._settle()
        key = uris.key(path)
        self.paths.setdefault(key, path)
        if not entries and key not in self.lints:
            return
        if entries:
            self.lints[key] = entries
        else:
            self.lints.pop(key, None)
        self.publish(key)

    def entries(self, key: str) -> List[Entry]:
        """The run layer and the lint layer of one file, merged: no line shows the same code twice.

        For an open document the lint layer is live (it follows the buffer), so a run's TW3xx
        entry gives way to it and lends it its related locations (the confirming launch); a lint
        whose problem the run measured on the same line (``codes.RUNTIME_TWINS``) gives way to the
        run's finding.
        """
        self._settle()
        runs: List[Entry] = []
        for by_file in self.runs.values():
            runs += by_file.get(key, [])
        lints = self.lints.get(key)
        if lints is None:
            return runs
        run_lints = {(e.span.start_line, e.code): e for e in runs if e.code.startswith("TW3")}
        runtime: Dict[int, set] = {}  # line -> runtime codes on it, or with a related location on it
        for e in runs:
            if not e.code.startswith("TW3"):
                runtime.setdefault(e.span.start_line, set()).add(e.code)
                for r in e.related:
                    if uris.key(r.span.path) == key:
                        runtime.setdefault(r.span.start_line, set()).add(e.code)
        out = [e for e in runs if not e.code.startswith("TW3")]
        seen = set()
        for e in lints:
            line_code = (e.span.start_line, e.code)
            if line_code in seen or codes.superseded(e.code, runtime.get(e.span.start_line, ())):
                continue
            if not e.code.startswith("TW3") and any(r.code == e.code and r.span.start_line == e.span.start_line
                                                    for r in runs):
                continue  # the lint's TW902 where the run reported the same syntax error: shown once
            seen.add(line_code)
            twin = run_lints.get(line_code)
            if twin is not None:
                extra = tuple(r for r in twin.related if r not in e.related)
                e = dataclasses.replace(e, related=tuple(e.related) + extra)
            out.append(e)
        return out

    # -- publishing ---------------------------------------------------------

    def publish(self, key: str) -> None:
        entries = self.entries(key)
        self._dirty.discard(key)
        if not entries and key not in self.published:
            return
        path = self.paths.get(key, key)
        uri = self.spellings.uri(path)
        if not entries:
            uri = self.published.pop(key, uri)
        else:
            previous = self.published.get(key)
            if previous is not None and previous != uri:
                # The client spells this file differently now: clear the old spelling.
                self._send(previous, [])
                self._sent.pop(key, None)
            self.published[key] = uri
        entries.sort(key=lambda e: (e.span.start_line, e.span.start_char, e.code))
        sent = (uri, self.spellings.version, entries)
        if self._sent.get(key) == sent:
            return  # the client has exactly these (a lint that found what the moved entries say)
        if entries:
            self._sent[key] = sent
        else:
            self._sent.pop(key, None)
        self._send(uri, [diagnostic_json(e, self.spellings.uri) for e in entries])

    def _send(self, uri: str, diagnostics: List[dict]) -> None:
        """``textDocument/publishDiagnostics`` with diagnostics that are JSON already.

        pygls would convert a ``PublishDiagnosticsParams`` field by field
        (cattrs); the message here is plain data its JSON encoder writes at once.
        """
        params = {"uri": uri, "diagnostics": diagnostics}
        send = getattr(self.server.protocol, "_send_data", None)
        if send is None:  # a pygls without that method: the typed way
            self.server.text_document_publish_diagnostics(structure(params, types.PublishDiagnosticsParams))
            return
        send({"jsonrpc": "2.0", "method": types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, "params": params})


def setup(server: TapewatchServer) -> DiagnosticsFeature:
    return server.add_feature(DiagnosticsFeature(server))
