"""The process that runs the editor's lints, and the server's handle on it.

Linting happens in a child process, one for the server, never on the event
loop nor in a thread of the server, because of what a lint holds:

- the CPU: a thread would share the GIL with the event loop, so requests
  would wait on the lint;
- memory: each open file keeps a ``ChunkParser`` (its parsed chunks, ~150
  bytes of AST per byte of source: 800 MB for a 5 MB file).  In the server
  those objects would make every collection of the cyclic collector slow,
  and freed they leave the heap fragmented (a 5 MB file edited once and
  closed left the server 100 MB larger than before it was opened).  The
  child's collector looks only at what the last lint made, after its reply
  is sent; when the last file it held closes (or it grew past
  ``RECYCLE_BYTES`` and a file closed) the child is ended: its memory goes
  back to the system, and the next lint starts a fresh one.

Requests are coalesced per document: a lint asked for while an older one of
the same document still waits replaces it (the older caller gets ``None``).
A lint already running finishes; the caller drops a result for a text that
changed meanwhile.  Frames on the child's stdin/stdout are a 4-byte length
and a pickle (both ends are this module).  Should the child fail to start,
lints run in a thread of the server as before.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import os
import pickle
import struct
import sys
import traceback
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

RECYCLE_BYTES = 256 * 1024 * 1024
_HEADER = struct.Struct(">I")
_BOOT = "import sys; sys.path.insert(0, sys.argv[1]); from tapewatch.lsp.lint_worker import main; main()"


def lint_or_syntax_error(linter: Callable[[str, str], List[Any]], text: str, path: str) -> List[Any]:
    """The linter's findings; for a file that does not parse, one TW902 instead.

    ``lint_source`` returns nothing for text that is not Python, which would
    look like "no problems": the syntax error says why the lints are quiet.
    """
    import ast  # noqa: PLC0415

    from .. import codes  # noqa: PLC0415
    from ..model import Finding, Location  # noqa: PLC0415

    found = list(linter(text, path))
    if found or ("wp" not in text and "warp" not in text):
        return found
    try:
        ast.parse(text, filename=path)
    except SyntaxError as exc:
        line = exc.lineno or 1
        return [Finding(
            code="TW902", severity=codes.severity("TW902"), id="lint-syntax",
            message="%s: %s (static lints resume when the file parses)" % (type(exc).__name__, exc.msg),
            location=Location(path, line, exc.offset or 1), data={"static": True})]
    except (ValueError, RecursionError, MemoryError):
        return []
    return found


# -- the server's side --------------------------------------------------------------------------

class LintWorker:
    """Lints documents in the child process; ``lint`` is awaited on the server's event loop."""

    def __init__(self) -> None:
        self._proc: Optional[asyncio.subprocess.Process] = None
        self._starting: Optional[asyncio.Task] = None
        self._queue: Dict[str, Tuple[str, str, asyncio.Future]] = {}  # key -> newest request, oldest key first
        self._task: Optional[asyncio.Task] = None
        self._held: Set[str] = set()  # documents the child keeps parsed chunks of
        self._recycle = False
        self._broken: Optional[str] = None  # why the child cannot start: lint in a thread instead
        self._parsers: Dict[str, Any] = {}  # the thread's parsers, when it comes to that

    async def lint(self, key: str, text: str, path: str) -> Optional[List[Any]]:
        """The findings of ``text``; None when a newer request for ``key`` replaced this one first."""
        older = self._queue.pop(key, None)
        if older is not None and not older[2].done():
            older[2].set_result(None)
        future: asyncio.Future = asyncio.get_running_loop().create_future()
        self._queue[key] = (text, path, future)
        if self._task is None:
            self._task = asyncio.ensure_future(self._serve())
        return await future

    def forget(self, key: str) -> None:
        """``key`` was closed: the child drops its chunks, and is ended once it holds nothing (or too much)."""
        dropped = self._queue.pop(key, None)
        if dropped is not None and not dropped[2].done():
            dropped[2].set_result(None)
        self._parsers.pop(key, None)
        if key in self._held:
            self._held.discard(key)
            self._send(("forget", key))
            if not self._held or self._rss() > RECYCLE_BYTES:
                self._recycle = True
                if self._task is None:
                    self.stop()

    def start(self) -> None:
        """Start the child ahead of the first lint (its imports take ~0.1 s)."""
        if self._proc is None and self._starting is None and self._broken is None:
            self._starting = asyncio.ensure_future(self._start())

    def stop(self) -> Optional[asyncio.Future]:
        """End the child (the next lint starts another); awaiting the result waits for its exit."""
        self._recycle = False
        self._held.clear()
        proc, self._proc = self._proc, None
        if proc is None:
            return None
        if proc.returncode is None:
            try:
                proc.kill()
            except ProcessLookupError:
                pass
        return asyncio.ensure_future(proc.wait())  # reaped while the loop runs: its pipes close cleanly

    async def close(self) -> None:
        """Stop serving: waiting callers get None, the child is ended."""
        for _, _, future in self._queue.values():
            if not future.done():
                future.set_result(None)
        self._queue.clear()
        if self._task is not None:
            self._task.cancel()
        exited = self.stop()
        if exited is not None:
            await asyncio.wait_for(exited, 5.0)

    @property
    def pid(self) -> Optional[int]:
        return self._proc.pid if self._proc is not None else None

    async def _serve(self) -> None:
        try:
            while self._queue:
                key = next(iter(self._queue))
                text, path, future = self._queue.pop(key)
                if future.done():
                    continue
                try:
                    found = await self._lint(key, text, path)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # noqa: BLE001 (handed to the caller, who reports it)
                    self.stop()  # in an unknown state: the next lint starts a fresh child
                    if not future.done():
                        future.set_exception(exc)
                    continue
                if not future.done():
                    future.set_result(found)
        finally:
            self._task = None
            if self._recycle:
                self.stop()

    async def _lint(self, key: str, text: str, path: str) -> List[Any]:
        proc = await self._ensure()
        if proc is None:
            return await self._in_thread(key, text, path)
        self._held.add(key)
        self._send(("lint", key, text, path))
        assert proc.stdout is not None
        size = _HEADER.unpack(await proc.stdout.readexactly(_HEADER.size))[0]
        status, payload = pickle.loads(await proc.stdout.readexactly(size))
        if status != "ok":
            self._held.discard(key)
            raise RuntimeError("the lint process failed:\n" + str(payload))
        from ..model import Finding  # noqa: PLC0415

        return [Finding.from_json(f) for f in payload]

    async def _ensure(self) -> Optional[asyncio.subprocess.Process]:
        if self._proc is not None and self._proc.returncode is None:
            return self._proc
        if self._broken is not None:
            return None
        if self._starting is None:
            self._starting = asyncio.ensure_future(self._start())
        await asyncio.shield(self._starting)
        return self._proc

    async def _start(self) -> None:
        self._held.clear()
        package_parent = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        try:
            # -I: neither the user's working directory nor PYTHON* variables reach the child.
            self._proc = await asyncio.create_subprocess_exec(
                sys.executable, "-I", "-c", _BOOT, package_parent,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        except (OSError, ValueError, TypeError, NotImplementedError) as exc:
            self._broken = "%s: %s" % (type(exc).__name__, exc)
            import logging  # noqa: PLC0415

            logging.getLogger("tapewatch.lsp").warning(
                "could not start the lint process (%s): lints run in the server", self._broken)
        finally:
            self._starting = None

    def _send(self, message: Tuple[Any, ...]) -> None:
        proc = self._proc
        if proc is None or proc.returncode is not None or proc.stdin is None:
            return
        body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            proc.stdin.write(_HEADER.pack(len(body)) + body)
        except (ConnectionError, RuntimeError):
            pass  # it died: the next lint notices and starts another

    def _rss(self) -> int:
        """The child's resident memory in bytes (0 where /proc cannot tell)."""
        if self._proc is None:
            return 0
        try:
            with open("/proc/%d/statm" % self._proc.pid) as f:
                return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError, AttributeError):
            return 0

    async def _in_thread(self, key: str, text: str, path: str) -> List[Any]:
        from ..lint import ChunkParser, lint_source  # noqa: PLC0415

        linter = functools.partial(lint_source, parser=self._parsers.setdefault(key, ChunkParser()))
        return await asyncio.get_running_loop().run_in_executor(None, lint_or_syntax_error, linter, text, path)


# -- the child --------------------------------------------------------------------------------

def main() -> None:
    """The child's loop: lint requests in, findings (as JSON-able dicts) out, until end of input."""
    from ..lint import ChunkParser, lint_source  # noqa: PLC0415

    _die_with_parent()
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a stray print must not corrupt the frames
    reader = _Frames(0)
    parsers: Dict[str, ChunkParser] = {}
    # The collector runs after each reply, over what that lint made (a lint leaves cycles, ~7
    # objects per kernel), then freezes the survivors: the parsed chunks, which outlive many lints
    # and die by reference counting, are not walked again and again.
    gc.collect()
    gc.freeze()
    gc.disable()
    while True:
        message = reader.next()
        if message is None:
            return
        if message[0] == "forget":
            parsers.pop(message[1], None)
            gc.unfreeze()
            gc.collect()
            gc.freeze()
            continue
        _, key, text, path = message
        try:
            linter = functools.partial(lint_source, parser=parsers.setdefault(key, ChunkParser()))
            reply: Tuple[str, Any] = ("ok", [f.to_json() for f in lint_or_syntax_error(linter, text, path)])
        except BaseException:  # noqa: BLE001 (reported to the server; this document starts afresh)
            parsers.pop(key, None)
            reply = ("error", traceback.format_exc())
        body = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        out.write(_HEADER.pack(len(body)) + body)
        out.flush()
        del reply, body
        gc.collect()
        gc.freeze()


def _die_with_parent() -> None:
    """On Linux, end with the server even in the middle of a long lint (else: at end of input)."""
    try:
        import ctypes  # noqa: PLC0415
        import signal  # noqa: PLC0415

        parent = os.getppid()
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # it died before that took effect
            os._exit(0)
    except (OSError, AttributeError, TypeError):
        pass


class _Frames:
    """Length-prefixed pickles from a file descriptor."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buf = bytearray()

    def _fill(self, size: int) -> bool:
        while len(self.buf) < size:
            chunk = os.read(self.fd, max(65536, size - len(self.buf)))
            if not chunk:
                return False
            self.buf += chunk
        return True

    def next(self) -> Optional[Tuple[Any, ...]]:
        if not self._fill(_HEADER.size):
            return None
        size = _HEADER.unpack(bytes(self.buf[:_HEADER.size]))[0]
        if not self._fill(_HEADER.size + size):
            return None
        body = bytes(self.buf[_HEADER.size:_HEADER.size + size])
        del self.buf[:_HEADER.size + size]
        return pickle.loads(body)
