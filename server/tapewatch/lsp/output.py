"""The script's stdout/stderr → ``window/logMessage``, batched and bounded.

A script may print 10k lines a second or spew binary: the client must get a
readable, bounded stream and the server must stay responsive.  Output is
collected per run, sent at most every ``interval`` seconds as whole lines
in messages of at most ``max_message`` characters; when more than
``max_pending`` characters wait, the oldest are dropped, and after
``max_total`` characters per run nothing more is sent.  Drops are
announced.  Control characters (other than tab) become U+FFFD.
"""

from __future__ import annotations

import asyncio
import re
from typing import Callable, List, Optional

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f]")


def clean(text: str) -> str:
    return _CONTROL.sub("\ufffd", text)


class OutputBatcher:
    def __init__(self, send: Callable[[str], None], interval: float = 0.1, max_message: int = 32 * 1024,
                 max_pending: int = 256 * 1024, max_total: int = 4 * 1024 * 1024):
        self._send = send
        self.interval = interval
        self.max_message = max_message
        self.max_pending = max_pending
        self.max_total = max_total
        self._pending: List[str] = []
        self._pending_size = 0
        self._partial = {"stdout": "", "stderr": ""}
        self._handle: Optional[asyncio.TimerHandle] = None
        self.sent = 0
        self.dropped = 0
        self._closed = False

    def add(self, stream: str, text: str) -> None:
        """The runner's ``on_output`` callback."""
        if self._closed or not text:
            return
        if self.sent >= self.max_total:
            self.dropped += len(text)
            return
        data = self._partial.get(stream, "") + text
        cut = max(data.rfind("\n"), data.rfind("\r"))
        if cut < 0 and len(data) < 8192:
            self._partial[stream] = data
            return
        if cut < 0:
            cut = len(data) - 1
        self._partial[stream] = data[cut + 1:]
        self._queue(data[: cut + 1])

    def _queue(self, text: str) -> None:
        self._pending.append(text)
        self._pending_size += len(text)
        while self._pending_size > self.max_pending and len(self._pending) > 1:
            old = self._pending.pop(0)
            self._pending_size -= len(old)
            self.dropped += len(old)
        if self._pending_size > self.max_pending:  # one huge chunk: keep its tail
            only = self._pending[0]
            keep = only[-self.max_pending:]
            self.dropped += len(only) - len(keep)
            self._pending = [keep]
            self._pending_size = len(keep)
        if self._handle is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                self.flush()
                return
            self._handle = loop.call_later(self.interval, self.flush)

    def flush(self) -> None:
        self._handle = None
        if not self._pending:
            return
        text = "".join(self._pending)
        self._pending, self._pending_size = [], 0
        if self.dropped and not self._closed:
            self._emit("[tapewatch: %d characters of output dropped to keep up]" % self.dropped)
            self.dropped = 0
        while text and self.sent < self.max_total:
            part, text = text[: self.max_message], text[self.max_message:]
            self._emit(part)
        if text:
            self.dropped += len(text)

    def _emit(self, text: str) -> None:
        text = clean(text.rstrip("\r\n"))
        if not text:
            return
        self.sent += len(text)
        self._send(text)

    def close(self) -> None:
        """Send what is left (partial lines too) and the drop count."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        for rest in self._partial.values():
            if rest:
                self._pending.append(rest + "\n")
        self._partial = {"stdout": "", "stderr": ""}
        self.flush()
        self._closed = True
        if self.dropped:
            self._send("[tapewatch: %d characters of the script's output were not shown]" % self.dropped)
            self.dropped = 0
