"""One logging path: stdlib ``logging`` records become ``window/logMessage``.

Everything the server logs about itself (a feature's exception with its
traceback, dropped input, probe errors) goes through the ``tapewatch``
logger; this handler sends each record to the client once, at its level.
Until a client is connected (before ``initialize``), and if sending fails,
records go to stderr, which clients show as the server's own output:
writing both would show every error twice.

The script's own output is not logging: ``runs`` streams it with
``window/logMessage`` at level Log directly (see ``output``).
"""

from __future__ import annotations

import logging
import sys
from typing import Optional

from lsprotocol import types

_TYPES = ((logging.ERROR, types.MessageType.Error), (logging.WARNING, types.MessageType.Warning),
          (logging.INFO, types.MessageType.Info))


def message_type(level: int) -> types.MessageType:
    return next((kind for floor, kind in _TYPES if level >= floor), types.MessageType.Log)


class ClientLogHandler(logging.Handler):
    def __init__(self, server, level: int = logging.INFO):
        super().__init__(level)
        self.server = server
        self.connected = False  # set when the client sends initialize
        self.setFormatter(logging.Formatter("tapewatch: %(message)s"))
        self._fallback = logging.StreamHandler(sys.stderr)
        self._fallback.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        if self.connected:
            try:
                self.server.window_log_message(types.LogMessageParams(
                    type=message_type(record.levelno), message=self.format(record)))
                return
            except Exception:  # noqa: BLE001 (the transport is gone: stderr still reaches someone)
                pass
        self._fallback.emit(record)


def install(server, level: Optional[int] = None) -> ClientLogHandler:
    """The handler on the ``tapewatch`` logger (not the root: pygls logs its own way)."""
    handler = ClientLogHandler(server)
    log = logging.getLogger("tapewatch")
    for old in [h for h in log.handlers if isinstance(h, ClientLogHandler)]:
        log.removeHandler(old)
    log.addHandler(handler)
    log.setLevel(level if level is not None else logging.INFO)
    log.propagate = False
    return handler
