"""A plain LSP client over the real server's stdio, and the typing burst the hostile tests and
``bench/bench_typing_burst.py`` drive with it.

No pytest-lsp here: its client turns every ``publishDiagnostics`` into lsprotocol objects
(~10 ms for 800 diagnostics), on the same two cores as the server it measures.  This client
reads messages in a thread, stamps their arrival, and keeps the last diagnostics of each URI.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parents[2]


def server_env() -> Dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "server"), env.get("PYTHONPATH")]))
    return env


class RawClient:
    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "tapewatch", "lsp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=str(ROOT),
                                     env=server_env())
        self.messages: "queue.Queue" = queue.Queue()
        self.log: List[str] = []  # every window/logMessage text, in order
        self.lock = threading.Condition()
        self.publishes: Dict[str, List[Tuple[float, list]]] = {}  # uri -> (arrival, diagnostics), in order
        self.next_id = 100
        threading.Thread(target=self._read, daemon=True).start()
        # stderr is drained, or a chatty server would block on a full pipe
        threading.Thread(target=self.proc.stderr.read, daemon=True).start()  # type: ignore[union-attr]

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                c = out.read(1)
                if not c:
                    self.messages.put(None)
                    return
                header += c
            n = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
            message = json.loads(out.read(n))
            now = time.perf_counter()
            method = message.get("method")
            if method == "window/logMessage":
                self.log.append(message["params"]["message"])
            elif method == "textDocument/publishDiagnostics":
                with self.lock:
                    params = message["params"]
                    self.publishes.setdefault(params["uri"], []).append((now, params["diagnostics"]))
                    self.lock.notify_all()
                continue
            message["_arrived"] = now
            self.messages.put(message)

    def send(self, obj: Any = None, raw: bytes = b"", length: Optional[int] = None) -> None:
        if obj is not None:
            body = json.dumps(obj).encode()
            raw = b"Content-Length: %d\r\n\r\n" % (len(body) if length is None else length) + body
        assert self.proc.stdin is not None
        self.proc.stdin.write(raw)
        self.proc.stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any = None) -> int:
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.next_id

    def response(self, msg_id: Any, timeout: float = 15.0) -> dict:
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                m = self.messages.get(timeout=max(0.05, deadline - time.time()))
            except queue.Empty:
                break
            if m is None:
                break
            if m.get("id") == msg_id and ("result" in m or "error" in m):
                return m
        raise AssertionError("no response to %r within %.0f s" % (msg_id, timeout))

    def initialize(self, options: Optional[dict] = None) -> None:
        self.send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                   "params": {"capabilities": {}, "processId": None, "rootUri": None,
                              "initializationOptions": options or {}}})
        self.response(0)
        self.notify("initialized", {})

    def published(self, uri: str) -> List[Tuple[float, list]]:
        with self.lock:
            return list(self.publishes.get(uri, []))

    def wait_published(self, uri: str, predicate: Callable[[list], bool], timeout: float) -> Optional[float]:
        """Waits until the last diagnostics published for ``uri`` satisfy ``predicate``; their arrival time."""
        deadline = time.time() + timeout
        with self.lock:
            while True:
                last = self.publishes.get(uri)
                if last and predicate(last[-1][1]):
                    return last[-1][0]
                remaining = deadline - time.time()
                if remaining <= 0:
                    return None
                self.lock.wait(min(remaining, 0.1))

    def rss_kib(self, pid: Optional[int] = None) -> int:
        """Resident memory of the server (or of ``pid``), KiB; 0 once it is gone."""
        try:
            with open("/proc/%d/status" % (pid or self.proc.pid)) as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0

    def tree_rss_kib(self) -> int:
        """Resident memory of the server and every process it started, KiB."""
        pids, todo = [], [self.proc.pid]
        while todo:
            pid = todo.pop()
            pids.append(pid)
            try:
                for task in os.listdir("/proc/%d/task" % pid):
                    with open("/proc/%d/task/%s/children" % (pid, task)) as f:
                        todo += [int(p) for p in f.read().split()]
            except OSError:
                pass
        return sum(self.rss_kib(pid) for pid in pids)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)


# -- the typing burst -------------------------------------------------------------------------

KERNEL = '''
@wp.kernel
def k{i}(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    s = x[i] * 2.0
    y[i] *= x[i]
'''
# Typed over a kernel's line at the end of a burst: a TW301 more (an in-place product by an array
# that carries a gradient), which only a lint of the final text can publish.
PLAIN_LINE, FINDING_LINE = "    s = x[i] * 2.0", "    x[i] *= y[i]"


def warp_file(kernels: int = 833) -> str:
    """A Warp module of ``kernels`` six-line kernels, one TW301 each: 833 give 5,000 lines."""
    return "import warp as wp\n" + "".join(KERNEL.format(i=i) for i in range(kernels))


def expected(text: str, path: str) -> List[Tuple[int, str]]:
    """(0-based line, code) of every lint finding in ``text``, as the server must publish them."""
    sys.path.insert(0, str(ROOT / "server"))
    from tapewatch.lint import lint_source

    return sorted((f.location.line - 1, f.code) for f in lint_source(text, path))


def lines_and_codes(diagnostics: list) -> List[Tuple[int, str]]:
    return sorted((d["range"]["start"]["line"], d.get("code")) for d in diagnostics)


def edits(text: str, count: int = 200, at: int = 2500) -> List[Tuple[dict, str]]:
    """``count`` edits as (incremental change, text after it): comment lines typed at line ``at``,
    the last one instead types an in-place product into kernel 0 (one finding more), so the
    diagnostics at the end can only be right if the final text was linted."""
    lines = text.split("\n")
    out = []
    for n in range(count - 1):
        new = "# typed %d\n" % n
        lines.insert(at, new[:-1])
        out.append(({"range": _range(at, 0, at, 0), "text": new}, "\n".join(lines)))
    line = lines.index(PLAIN_LINE)
    lines[line] = FINDING_LINE
    out.append(({"range": _range(line, 0, line, len(PLAIN_LINE)), "text": FINDING_LINE}, "\n".join(lines)))
    return out


def _range(sl: int, sc: int, el: int, ec: int) -> dict:
    return {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}


def burst(client: RawClient, path: Path, full: bool, count: int = 200, gap: float = 0.005,
          kernels: int = 833, settle: float = 60.0) -> Dict[str, Any]:
    """Open a generated file, wait for its lints, send ``count`` changes ``gap`` s apart, then a
    request.  Returns the request's latency from the end of the burst, when the diagnostics of the
    final text were published, and how many publishes the burst caused."""
    text = warp_file(kernels)
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    first = expected(text, str(path))
    client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "python", "version": 1, "text": text}})
    if client.wait_published(uri, lambda d: lines_and_codes(d) == first, settle) is None:
        raise AssertionError("the opened file's lints were not published within %.0f s" % settle)
    changes = edits(text, count)
    final = expected(changes[-1][1], str(path))
    before = len(client.published(uri))
    t0 = time.perf_counter()
    for n, (change, after) in enumerate(changes):
        delay = t0 + n * gap - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": n + 2},
            "contentChanges": [{"text": after} if full else change]})
    end = time.perf_counter()
    msg_id = client.request("tapewatch/tapeGraph", {"uri": uri})
    answer = client.response(msg_id, timeout=settle)
    latency = answer["_arrived"] - end
    right = client.wait_published(uri, lambda d: lines_and_codes(d) == final, settle)
    last = client.published(uri)[-1][1]
    return {
        "lines": text.count("\n") + 1,
        "diagnostics": len(first),
        "burst_s": end - t0,
        "request_s": latency,
        "final_s": None if right is None else right - end,
        "final_ok": right is not None,
        "final_got": lines_and_codes(last),
        "final_expected": final,
        "publishes": len(client.published(uri)) - before,
        "uri": uri,
    }
