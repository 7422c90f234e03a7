"""Reading LSP messages from stdin without ever going deaf.

pygls' reader trusts every ``Content-Length``: ``2**40`` makes it allocate a
terabyte, a length that is too long swallows the next messages until the
client gives up, a too-short one leaves it parsing the middle of a JSON
body, and a request whose params do not fit their type is never answered.
This loop frames messages itself:

- a length over ``MAX_MESSAGE`` is refused with a log line, and reading
  resumes at the next ``Content-Length`` header;
- a body that is not JSON, or a header block without a valid length, is
  logged and skipped up to the next header (a too-short length ends here);
- a body that never completes while another header follows it in the
  stream (a too-long length) is re-read up to that header after
  ``STALL_S`` seconds without new input;
- a request whose params cannot be read is answered ``InvalidParams``;
- a body that is not JSON (not UTF-8, cut short, nested deeper than the
  parser goes) is answered ``ParseError`` with ``"id": null``, as JSON-RPC
  2.0 says: its own id cannot be trusted, and a client waiting on it learns
  that something it sent was lost.

Messages that parse are handed to pygls' protocol unchanged.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import threading
from typing import Optional

from pygls.exceptions import JsonRpcInvalidParams, JsonRpcParseError

MAX_MESSAGE = 64 * 1024 * 1024
MAX_HEADER = 8 * 1024
STALL_S = 1.0
HEADER = b"Content-Length:"
_LENGTH = re.compile(rb"^Content-Length:\s*(\d+)\s*$", re.I | re.M)

log = logging.getLogger(__name__)


class Framer:
    """Cuts a byte stream into message bodies; see the module doc for what it tolerates."""

    def __init__(self) -> None:
        self.buf = bytearray()

    def feed(self, data: bytes) -> None:
        self.buf += data

    def next_body(self, stalled: bool = False) -> Optional[bytes]:
        """The next complete body, or None when more input is needed."""
        while True:
            start = self.buf.find(HEADER)
            if start < 0:
                if len(self.buf) > MAX_HEADER:
                    log.warning("dropped %d bytes of input without a Content-Length header", len(self.buf))
                    del self.buf[: len(self.buf) - len(HEADER)]
                return None
            if start > 0:
                junk = bytes(self.buf[:start])
                if junk.strip():
                    log.warning("dropped %d bytes of input before a header", len(junk))
                del self.buf[:start]
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                if len(self.buf) > MAX_HEADER:
                    self._skip("a header block without an end")
                    continue
                return None
            match = _LENGTH.search(bytes(self.buf[:end]))
            if match is None:
                self._skip("a header block without a valid Content-Length")
                continue
            length = int(match.group(1))
            if length > MAX_MESSAGE:
                log.warning("refused a message of %d bytes (the limit is %d)", length, MAX_MESSAGE)
                self._skip("an oversized message")
                continue
            body_start = end + 4
            if len(self.buf) >= body_start + length:
                body = bytes(self.buf[body_start: body_start + length])
                del self.buf[: body_start + length]
                return body
            if stalled:
                # A length longer than what came: if another message follows, this one ended there.
                nxt = self.buf.find(HEADER, body_start)
                if nxt >= 0:
                    body = bytes(self.buf[body_start:nxt])
                    del self.buf[:nxt]
                    log.warning("a Content-Length of %d did not match the message (%d bytes)",
                                length, len(body))
                    return body
            return None

    def _skip(self, why: str) -> None:
        nxt = self.buf.find(HEADER, 1)
        log.warning("skipped %s", why)
        if nxt < 0:
            del self.buf[:]
        else:
            del self.buf[:nxt]


class Exit(Exception):
    """The client said ``exit``: leave with this status."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


def dispatch(protocol, body: bytes) -> None:
    """Hand one body to pygls; answer what it cannot read instead of dropping it."""
    if b'"exit"' in body:
        try:
            raw = json.loads(body)
        except Exception:  # noqa: BLE001 (not JSON, or nested too deep: answered below)
            raw = None
        if isinstance(raw, dict) and raw.get("method") == "exit" and "id" not in raw:
            # 0 after ``shutdown``, 1 without (LSP); no waiting for runs or threads.
            raise Exit(0 if getattr(protocol, "_shutdown", False) else 1)
    try:
        message = json.loads(body, object_hook=protocol.structure_message)
    except JsonRpcInvalidParams as exc:
        _answer(protocol, body, exc)
        return
    except Exception as exc:  # noqa: BLE001 (not JSON (a wrong length), or a structure pygls refuses)
        log.warning("could not read a message (%s: %s)", type(exc).__name__, str(exc)[:200])
        _answer(protocol, body, JsonRpcInvalidParams())
        return
    protocol.handle_message(message)


def _answer(protocol, body: bytes, error) -> None:
    """Answer a request pygls could not take with ``error``; a body that is not JSON with ParseError."""
    try:
        raw = json.loads(body)
    except Exception:  # noqa: BLE001 (bad UTF-8, cut short, RecursionError: no id to trust)
        parse_error = JsonRpcParseError().to_response_error()
        protocol._send_data({"jsonrpc": "2.0", "id": None,
                             "error": {"code": parse_error.code, "message": parse_error.message}})
        return
    if isinstance(raw, dict) and "id" in raw and "method" in raw:
        protocol._send_response(raw["id"], error=error.to_response_error())


async def serve(server, stdin, stdout) -> None:
    """The message loop: a thread reads stdin, the event loop frames and dispatches."""
    from pygls.io_ import StdoutWriter  # noqa: PLC0415

    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue()
    server.protocol.set_writer(StdoutWriter(stdout))

    def pump() -> None:
        while True:
            try:
                chunk = stdin.read1(65536) if hasattr(stdin, "read1") else stdin.read(65536)
            except (OSError, ValueError):
                chunk = b""
            loop.call_soon_threadsafe(queue.put_nowait, chunk)
            if not chunk:
                return

    threading.Thread(target=pump, name="tapewatch-stdin", daemon=True).start()
    framer = Framer()
    stop = server._stop_event
    eof = False
    while not stop.is_set():
        body = framer.next_body()
        if body is not None:
            dispatch(server.protocol, body)
            continue
        if eof:
            break
        try:
            chunk = await asyncio.wait_for(queue.get(), STALL_S)
        except asyncio.TimeoutError:
            body = framer.next_body(stalled=True)
            if body is not None:
                dispatch(server.protocol, body)
            continue
        if not chunk:
            eof = True
            continue
        framer.feed(chunk)
