"""Runs the probe on a script and turns its events into a ``RunResult``.

The one engine behind the CLI and the language server: a fresh process per
run, in the user's interpreter, never through a shell, with its own process
group so that a timeout or a cancel kills the whole tree.  Events arrive on
a pipe of their own; the script's stdout/stderr are streamed to a callback
and only their tail is kept (a flood cannot exhaust memory).
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import dataclasses
import json
import os
import re
import signal
import stat
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Set, Tuple

from . import codes
from .model import Finding, Location, Related, TapeGraph
from .processes import Descendants, kill_group
from .spawn import (HARNESS_HEADER, RunRequest, Started, find_harness, is_harness, probe_command,  # noqa: F401
                    probe_env, probe_pythonpath, start)

OutputCallback = Callable[[str, str], None]  # (stream name, text)
EventCallback = Callable[[dict], None]

TAIL_BYTES = 64 * 1024
# Lines of Warp's own start-up that say nothing about why a run died.
_NOISE = re.compile(r"^(Warp \S+ initialized|Warp CUDA warning|\s+(CUDA Toolkit|Devices:|Kernel cache:|\"cpu\"|/\S+/warp/))"
                    r"|^Module .* load on device")
EVENT_LINE_LIMIT = 64 * 1024 * 1024  # a tape graph of a long rollout is large
# Findings whose code means the tool could not run the script at all (TW912: it ran, but recorded
# no tape, so there was nothing to verify).
TOOL_FAILURES = {"TW902", "TW903", "TW904", "TW905", "TW906", "TW908", "TW909", "TW912"}
# Findings that leave the run unverified: the tool failures, and a script that raised (TW901: the
# launches after the exception never ran).  Exit status 2, status "failed".
UNVERIFIED = TOOL_FAILURES | {"TW901"}
# Runtime codes that only a tape (its launches, its backward) can produce.
_TAPE_CODES = ("TW1", "TW2", "TW4")


@dataclass
class RunResult:
    script: str
    findings: List[Finding] = field(default_factory=list)
    tapes: List[TapeGraph] = field(default_factory=list)
    warp_version: Optional[str] = None
    device: Optional[str] = None
    python: Optional[str] = None
    features: Dict[str, bool] = field(default_factory=dict)
    seconds: float = 0.0
    exit_code: Optional[int] = None
    outcome: str = "ok"  # ok, raised, syntax-error, timeout, cancelled, crashed, ...
    stderr_tail: str = ""
    # With per-launch checks: how many launches were checked, passed, failed, inconclusive,
    # skipped, and why each skip happened.
    launch_checks: Optional[dict] = None
    # (kernel's file, kernel's name) -> the statuses of its per-launch checks ("pass", "fail"...)
    kernel_checks: Dict[Tuple[str, str], Set[str]] = field(default_factory=dict)
    kernels: List[dict] = field(default_factory=list)  # the kernels the run launched (``kernels`` event)
    # What the probe could not measure, and why: ``[{"what", "reason", "count"}]`` (a graph capture...).
    not_measured: List[dict] = field(default_factory=list)
    tapes_skipped: int = 0  # tapes whose graph was not captured (the same structure as one that was)

    @property
    def incomplete(self) -> bool:
        """Something inside Tapewatch failed (TW910): the findings may not be all there is."""
        return any(f.code == "TW910" for f in self.findings)

    @property
    def tool_failed(self) -> bool:
        return any(f.code in TOOL_FAILURES for f in self.findings)

    @property
    def unverified(self) -> bool:
        """The run could not verify the program: a tool failure, an exception, no tape recorded."""
        return any(f.code in UNVERIFIED for f in self.findings)

    @property
    def status(self) -> str:
        if self.outcome == "cancelled":
            return "cancelled"
        if self.unverified:
            return "failed"
        return "findings" if self.problems() else "ok"

    def exit_status(self) -> int:
        """The compiler convention: 0 verified clean, 1 findings, 2 could not verify (the run failed, or
        something inside Tapewatch did: TW910, results may be incomplete)."""
        if self.status in ("failed", "cancelled") or self.incomplete:
            return 2
        return 1 if self.status == "findings" else 0

    def recorded_a_tape(self) -> bool:
        """Whether the program recorded a launch on a ``wp.Tape`` (a graph, a differentiated kernel, a
        launch check or a runtime finding says so).  With graphs off, a tape that was never
        differentiated and gave no finding leaves no trace."""
        if self.tapes or self.tapes_skipped:
            return True
        if any(k.get("differentiated") for k in self.kernels):
            return True
        checks = self.launch_checks or {}
        if checks.get("checked") or checks.get("skipped"):
            return True
        return any(f.code.startswith(_TAPE_CODES) and f.data.get("source") != "lint" for f in self.findings)

    def problems(self) -> List[Finding]:
        """Findings that ask for a change (a passed FD check is information, not a problem)."""
        return [f for f in self.findings if f.severity in ("error", "warning")]

    def counts(self) -> Dict[str, int]:
        out = {"error": 0, "warning": 0, "information": 0, "hint": 0}
        for f in self.findings:
            out[f.severity] = out.get(f.severity, 0) + 1
        return out

    def summary(self) -> dict:
        return {
            "script": self.script,
            "status": self.status,
            "outcome": self.outcome,
            "warp_version": self.warp_version,
            "device": self.device,
            "seconds": round(self.seconds, 3),
            "exit_code": self.exit_code,
            "counts": self.counts(),
            "findings": len([f for f in self.findings if f.data.get("source") != "lint"]),
            "lints": len([f for f in self.findings if f.data.get("source") == "lint"]),
            "tapes": len(self.tapes),
            "incomplete": self.incomplete,
            "launch_checks": self.launch_checks,
            "not_measured": self.not_measured,
            "failure": self.failure(),
        }

    def failure(self) -> Optional[dict]:
        """Why the run failed, for a one-line message: the tool failure, else the script's exception."""
        failing = (next((f for f in self.findings if f.code in TOOL_FAILURES), None)
                   or next((f for f in self.findings if f.code == "TW901"), None))
        if failing is None:
            return None
        lines = failing.message.strip().splitlines() or [""]
        out = {"code": failing.code, "message": lines[0][:300]}
        if failing.location is not None and os.path.isfile(failing.location.path):
            out.update(path=failing.location.path, line=failing.location.line)
        return out


async def run_probe(
    req: RunRequest,
    on_output: Optional[OutputCallback] = None,
    on_event: Optional[EventCallback] = None,
    into: Optional[RunResult] = None,
    started: Optional[Started] = None,
) -> RunResult:
    """Run the probe; cancelling the awaiting task kills the process tree.

    ``into`` is filled as events arrive, so a caller that cancels the run
    still holds the findings reported so far.  ``started`` is the probe
    already started on ``req`` (``spawn.start``), which this run now owns.
    """
    result = into if into is not None else RunResult(script=os.path.abspath(req.script))
    result.script, result.device, result.python = os.path.abspath(req.script), req.device, req.python
    began = started.at if started is not None else time.perf_counter()
    if not os.path.isfile(req.script):
        if started is not None:
            started.abandon()
        result.findings.append(codes.tool_finding("TW909", "Script not found: %s" % req.script))
        result.outcome = "script-not-found"
        return result
    if started is None:
        try:
            started = start(req)
        except (OSError, ValueError) as exc:
            result.findings.append(codes.tool_finding(
                "TW908", "Cannot start the interpreter `%s`: %s" % (req.python, exc), interpreter=req.python))
            result.outcome = "interpreter-unusable"
            return result
    started.claimed = True  # this run ends it, whatever happens
    proc = started.proc
    loop = asyncio.get_running_loop()
    exited = _exit_future(loop, proc)
    tree = Descendants(proc.pid)
    # The script's lints need only its text: computed on another core while the probe runs.
    prelinted = loop.run_in_executor(None, _prelint, req.script) \
        if req.lint and not is_harness(req.script) else None
    collector = _EventCollector(result, on_event)
    tails = {"stdout": _Tail(), "stderr": _Tail()}
    events = os.fdopen(started.events_fd, "rb", buffering=0)
    pipes: list = []
    tasks: list = []
    try:
        try:
            # Connecting the pipes awaits: a cancel (or a failure) there must end the tree too.
            for name, stream in (("stdout", proc.stdout), ("stderr", proc.stderr)):
                reader, pipe = await _reader(loop, stream)
                pipes.append(pipe)
                tasks.append(asyncio.ensure_future(_pump(reader, name, tails[name], on_output)))
            tasks.append(asyncio.ensure_future(_read_events(events, collector)))
            events = None  # its reader's transport closes it
            await asyncio.wait_for(_exited(exited, tree),
                                   timeout=req.timeout if req.timeout and req.timeout > 0 else None)
        except asyncio.TimeoutError:
            dump = await ask_where(proc, collector.where)  # before the kill: where was the script?
            _kill_tree(proc, tree)
            await asyncio.shield(exited)
            result.outcome = "timeout"
            result.findings.append(timeout_finding(result.script, req.timeout, collector.where, dump,
                                                   started=collector.started))
        except asyncio.CancelledError:
            _kill_tree(proc, tree)
            with contextlib.suppress(Exception):
                await asyncio.shield(exited)
            for t in tasks:
                t.cancel()
            result.seconds = time.perf_counter() - began  # the partial result says how long it ran
            raise
        finally:
            # The run is over: nothing it started outlives it (setsid escapees included).
            _kill_tree(proc, tree)
            tree.finish()
        # Grandchildren may keep the pipes open after the probe exits.
        done, pending = await asyncio.wait(tasks, timeout=2.0)
        for t in pending:
            t.cancel()
    finally:
        for pipe in pipes:  # close the pipes now, not when the loop is gone
            pipe.close()
        if events is not None:
            events.close()  # stopped before its reader started
    await asyncio.sleep(1e-3 if tree.adopted else 0)
    tree.kill_all()  # reap what died after the first pass
    result.exit_code = proc.returncode
    result.seconds = time.perf_counter() - began
    result.stderr_tail = tails["stderr"].text()
    collector.finish(proc.returncode, tails["stderr"].text(), tails["stdout"].text())
    if req.lint and not result.tool_failed and not is_harness(req.script):
        from .run_lints import lint_run  # noqa: PLC0415

        try:
            early = await prelinted if prelinted is not None else None
            result.findings.extend(lint_run(req.script, result.kernels, result.findings, early,
                                            checks=result.kernel_checks))
        except Exception as exc:  # noqa: BLE001 (the runtime findings stand; say the lints are missing)
            result.findings.append(codes.tool_finding(
                "TW910", "Internal error in Tapewatch while linting the run's files (%s: %s): results may be "
                "incomplete." % (type(exc).__name__, exc)))
    return result


async def _reader(loop, pipe, limit: int = 2 ** 16):
    """An asyncio reader over one of the probe's pipes, and its transport."""
    reader = asyncio.StreamReader(limit=limit)
    transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), pipe)
    return reader, transport


def _exit_future(loop, proc) -> "asyncio.Future":
    """Resolves with the probe's exit status.

    A thread waits for it: the process was started without the event loop
    (perhaps before there was one), so no child watcher of asyncio knows it.
    """
    exited = loop.create_future()

    def settle(code) -> None:
        if not exited.done():
            exited.set_result(code)

    def wait() -> None:
        code = proc.wait()
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(settle, code)

    threading.Thread(target=wait, name="tapewatch-probe-exit", daemon=True).start()
    return exited


def _prelint(script: str):
    from .run_lints import prelint  # noqa: PLC0415 (the lint engine loads only when a run lints)

    try:
        return prelint(script)
    except Exception:  # noqa: BLE001 (lint_run lints again, and reports a failure there)
        return None


@dataclass
class Verification:
    """A verification: the script's run, then the FD harness written for it, if there is one."""

    result: RunResult
    harness: Optional[str] = None
    checked: Optional[RunResult] = None  # the harness's run (its TW4xx verdicts)

    def combined(self) -> RunResult:
        """The script's result with the harness's findings and time added (one report)."""
        if self.checked is None:
            return self.result
        combined = dataclasses.replace(self.result, findings=self.result.findings + self.checked.findings,
                                       seconds=self.result.seconds + self.checked.seconds)
        return combined


async def run_verification(
    req: RunRequest,
    on_output: Optional[OutputCallback] = None,
    on_event: Optional[EventCallback] = None,
    into: Optional[Verification] = None,
    with_harness: bool = True,
    on_harness: Optional[Callable[[str], None]] = None,
    started: Optional[Started] = None,
) -> Verification:
    """What the CLI's ``check`` and the editor's Run Verification both run.

    ``into`` is filled as events arrive (see ``run_probe``): a caller that
    cancels still holds what was reported so far.  ``started``: the script's
    probe, already started (``spawn.start``).
    """
    out = into if into is not None else Verification(RunResult(script=os.path.abspath(req.script)))
    await run_probe(req, on_output=on_output, on_event=on_event, into=out.result, started=started)
    result = out.result
    if not is_harness(req.script) and not result.unverified and result.outcome == "ok" \
            and not result.recorded_a_tape():
        result.findings.append(no_tape_finding(result))
    if not with_harness or out.result.tool_failed or is_harness(req.script):
        return out
    harness = find_harness(req.script)
    if harness is None:
        return out
    out.harness = harness
    out.checked = RunResult(script=harness)
    if on_harness is not None:
        on_harness(harness)
    await run_probe(dataclasses.replace(req, script=harness), on_output=on_output, on_event=on_event,
                    into=out.checked)
    return out


def no_tape_finding(result: RunResult) -> Finding:
    """TW912: the script ran to its end and recorded no launch on a tape: nothing was verified."""
    return codes.tool_finding(
        "TW912", "The script ran to its end (exit status %s) without recording a launch on a wp.Tape: there was "
        "no gradient to check, so nothing was verified. Run the script that records and differentiates the "
        "tape (a repro calls wp.Tape() and tape.backward())." % result.exit_code,
        location=Location(result.script, 1, 1), exit_status=result.exit_code)


# How long a run that timed out is given to say where it was before it is killed.  The answer is
# written by a C signal handler (faulthandler) in microseconds; a process that is stopped, or whose
# handler was taken over, never answers.
WHERE_WAIT_S = 1.0
WHERE_BYTES = 256 * 1024  # faulthandler writes at most 100 frames a thread, 500 characters a name


async def ask_where(proc, where: Optional[dict]) -> Optional[str]:
    """Ask a probe that timed out for its stacks (the probe's ``where`` event says how: a signal, and the
    descriptor its faulthandler writes into): the text faulthandler wrote, or None when it could not
    be asked or did not answer within ``WHERE_WAIT_S``."""
    if where is None or proc.poll() is not None:
        return None
    path = "/proc/%d/fd/%d" % (proc.pid, where["fd"])
    try:
        # Never blocks, and reads a regular file only: the event could name any descriptor.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        before = os.fstat(fd).st_size
        try:
            os.kill(proc.pid, where["signal"])
        except (OSError, ValueError, OverflowError):
            return None
        deadline = time.monotonic() + WHERE_WAIT_S
        size = before
        while time.monotonic() < deadline:
            await asyncio.sleep(0.01)
            now = os.fstat(fd).st_size
            if now > before and now == size:  # written, and no longer growing
                break
            size = now
        if size <= before:
            return None
        return os.pread(fd, min(size - before, WHERE_BYTES), before).decode("ascii", "replace")
    except OSError:
        return None
    finally:
        os.close(fd)


_THREAD = re.compile(r"^(?:Current thread|Thread) (0x[0-9a-fA-F]+) \(most recent call first\):")
_FRAME = re.compile(r'^\s+File "(.*)", line (\d+) in (.*)$')
_ESCAPE = re.compile(r"\\x([0-9a-f]{2})|\\u([0-9a-f]{4})|\\U([0-9a-f]{8})")


def main_thread_frames(dump: str, main_thread: int) -> List[Tuple[str, int, str]]:
    """The main thread's frames in a faulthandler dump, innermost first: (path, line, function).
    faulthandler writes names in ASCII, other characters as ``\\xNN``, ``\\uNNNN``, ``\\UNNNNNNNN``."""
    frames: List[Tuple[str, int, str]] = []
    inside = False
    for line in dump.splitlines():
        header = _THREAD.match(line)
        if header:
            if inside:
                break
            inside = int(header.group(1), 16) == main_thread
            continue
        frame = _FRAME.match(line) if inside else None
        if frame:
            path = _unescape(frame.group(1))
            frames.append((path if os.path.isfile(path) else frame.group(1), int(frame.group(2)),
                           _unescape(frame.group(3))))
    return frames


def _unescape(text: str) -> str:
    return _ESCAPE.sub(lambda m: chr(int(next(g for g in m.groups() if g), 16)), text)


def _user_frame(path: str, script: str, exclude: List[str]) -> bool:
    if not os.path.isfile(path):
        return False  # <frozen ...>, <string>, a file gone since
    path = os.path.abspath(path)
    if path == script:
        return True  # the script is the user's wherever it lives (as the probe's frames say)
    if any(path == p or path.startswith(p.rstrip(os.sep) + os.sep) for p in exclude):
        return False
    from .installed import is_installed  # noqa: PLC0415 (only a timeout needs it)

    return not is_installed(path)


def _statement(path: str, line: int) -> Location:
    """``line`` of ``path`` as a location spanning its statement's text (indentation left out)."""
    text = ""
    with contextlib.suppress(OSError):
        with open(path, "rb") as f:
            for number, raw in enumerate(f, start=1):
                if number == line:
                    text = raw.rstrip(b"\r\n").decode("utf-8", "replace")
                    break
    stripped = text.strip()
    if not stripped:
        return Location(path, line, 1)
    column = len(text) - len(text.lstrip()) + 1
    return Location(path, line, column, end_line=line, end_column=column + len(stripped.encode("utf-8")))


def timeout_finding(script: str, timeout: float, where: Optional[dict], dump: Optional[str],
                    started: bool = True) -> Finding:
    """TW905, on the line of the user's code the script was running when it was stopped (the innermost
    frame of the main thread that is the user's: the script, or a module of theirs), its callers and the
    library line it was in as related locations; on line 1 of the script, saying why, when that cannot
    be told."""
    script = os.path.abspath(script)
    head = "The run did not finish within %gs and was stopped" % timeout
    tail = " (the whole process tree was killed). Raise the timeout or shorten the repro."
    frames = main_thread_frames(dump, where["main_thread"]) if dump and where else []
    mine = [(i, f) for i, f in enumerate(frames) if _user_frame(f[0], script, where["exclude"] if where else [])]
    if not mine:
        if dump and frames:
            why = "it was not running code of yours: Tapewatch's, Warp's or a library's frames only"
        elif dump:
            why = "its answer held no stack of the script's thread"
        elif where is None:
            why = ("the script had not started yet (Python, Warp or Tapewatch was still loading)" if not started
                   else "this run cannot be asked (a harness, or a platform without real-time signals and /proc)")
        else:
            why = "it did not answer within %gs: a hung native call, or a stopped process" % WHERE_WAIT_S
        return codes.tool_finding("TW905", head + tail + " Where it was could not be told: %s." % why,
                                  location=Location(script, 1, 1), stopped_at=None, where_unknown=why)
    first, (path, line, func) = mine[0]
    related: List[Related] = []
    if first > 0 and os.path.isfile(frames[0][0]):  # inside a library call: its innermost line
        lib_path, lib_line, lib_func = frames[0]
        related.append(Related(Location(lib_path, lib_line, 1), "running `%s` here (library code)" % lib_func,
                               "library"))
    callee = func
    for _, (caller_path, caller_line, caller_func) in mine[1:8]:
        related.append(Related(_statement(caller_path, caller_line), "`%s()` called from here" % callee, "caller"))
        callee = caller_func
    where_text = " here, in `%s`" % func if func != "<module>" else " here"
    finding = codes.tool_finding("TW905", head + where_text + tail, location=_statement(path, line),
                                 stopped_at={"path": path, "line": line, "function": func})
    finding.related = related
    return finding


SCAN_INTERVAL = 0.5  # seconds between looks for new descendants (setsid escapees)


async def _exited(exited: "asyncio.Future", tree: Descendants) -> None:
    """Wait for the probe to exit, looking for its descendants meanwhile.

    The probe's own exit ends a run, even when a background process the
    script started still holds the output pipes open: the caller kills what
    is left of the tree (its process group, and descendants that left it),
    and the pipes close.  Descendants are looked up while they live, so that
    one that calls ``setsid`` is still known at the end.
    """
    last_scan = 0.0
    while not exited.done():
        await asyncio.wait({exited}, timeout=0.1)
        if time.monotonic() - last_scan > SCAN_INTERVAL:
            last_scan = time.monotonic()
            tree.scan()


class _EventCollector:
    def __init__(self, result: RunResult, on_event: Optional[EventCallback]):
        self.result = result
        self.on_event = on_event
        self.ended = False
        self.garbage = 0
        self.garbage_sample = ""
        self.by_id: Dict[str, Finding] = {}
        self.probe_errors: List[str] = []
        self.started = False  # the probe said ``start``: the script is about to run
        self.where: Optional[dict] = None  # how to ask the probe where the script is (``where`` event)

    def line(self, raw: bytes) -> None:
        """One event line; anything malformed (types, sizes, nesting) is counted, never fatal."""
        try:
            event = json.loads(raw.decode("utf-8"))
            kind = event["event"]
            if not isinstance(kind, str):
                raise TypeError("event name")
        except (ValueError, KeyError, TypeError, IndexError, UnicodeDecodeError, RecursionError):
            self._garbage(raw)
            return
        try:
            self.apply(kind, event)
        except Exception:  # noqa: BLE001 (wrong field types, 1e999, a finding that is a list...)
            self._garbage(raw)
            return
        if self.on_event is not None:
            self.on_event(event)

    def _garbage(self, raw: bytes) -> None:
        self.garbage += 1
        if not self.garbage_sample:
            self.garbage_sample = raw[:80].decode("utf-8", "replace")

    def apply(self, kind: str, event: dict) -> None:
        r = self.result
        if kind == "start":
            self.started = True
            r.warp_version = event.get("warp_version")
            r.device = event.get("device") or r.device
            r.python = event.get("python") or r.python
            r.features = dict(event.get("features") or {})
        elif kind == "finding":
            finding = Finding.from_json(event["finding"])
            old = self.by_id.get(finding.id) if finding.id else None
            if old is not None:  # a known id: the probe judged it again (a replay measured the harm)
                r.findings[r.findings.index(old)] = finding
            else:
                r.findings.append(finding)
            if finding.id:
                self.by_id[finding.id] = finding
        elif kind == "counts":
            for fid, count in dict(event["counts"]).items():
                if fid in self.by_id:
                    self.by_id[fid].count = int(count)
        elif kind == "tape":
            r.tapes.append(TapeGraph.from_json(event["tape"]))
        elif kind == "end":
            self.ended = True
            if r.outcome == "ok":
                r.outcome = str(event.get("outcome", "ok"))
        elif kind == "probe_error":  # a probe older than the TW910 findings
            self.probe_errors.append(str(event.get("message", "")))
        elif kind == "launch_checks":
            r.launch_checks = {k: v for k, v in event.items() if k != "event"}
        elif kind == "launch_check":
            if event.get("kernel_path") and event.get("kernel_name"):
                key = (os.path.abspath(str(event["kernel_path"])), str(event["kernel_name"]))
                r.kernel_checks.setdefault(key, set()).add(str(event.get("status")))
        elif kind == "where":
            self.where = {"signal": int(event["signal"]), "fd": int(event["fd"]),
                          "main_thread": int(event["main_thread"]),
                          "exclude": [str(p) for p in event.get("exclude") or []][:16]}
        elif kind == "tapes_skipped":
            r.tapes_skipped = int(event.get("count", 0) or 0)
        elif kind == "tape_repeats":
            counts = event.get("counts") or {}
            for tape in r.tapes:
                tape.repeats = max(1, int(counts.get(tape.id, 1) or 1))
        elif kind == "kernels":
            r.kernels = [k for k in event["kernels"] if isinstance(k, dict)]
        elif kind == "not_measured":
            r.not_measured = [dict(what=str(i.get("what", "")), reason=str(i.get("reason", "")),
                                   count=int(i.get("count", 0) or 0))
                              for i in event.get("items") or [] if isinstance(i, dict)]

    def finish(self, returncode: Optional[int], stderr_tail: str, stdout_tail: str = "") -> None:
        """The process exited with ``returncode``: its exit status wins over what its events said.

        No ``end`` event, or a death by a signal whatever was written before it (an ``end`` line can
        be forged, and a crash at interpreter shutdown comes after the real one): TW906."""
        r = self.result
        if self.garbage:
            r.findings.append(codes.tool_finding(
                "TW907", "%d unreadable line(s) arrived on the event channel (first: %r); they were ignored."
                % (self.garbage, self.garbage_sample)))
        signalled = returncode is not None and returncode < 0
        if (not self.ended or signalled) and r.outcome not in ("timeout", "cancelled"):
            r.outcome = "crashed"
            how = "ended (exit status %s)" % returncode
            if signalled:
                try:
                    name = signal.Signals(-returncode).name
                except ValueError:
                    name = "signal %d" % -returncode
                how = "was killed by %s%s" % (name, " (a crash in native code: a kernel, a library)"
                                              if name in ("SIGSEGV", "SIGBUS", "SIGABRT", "SIGILL", "SIGFPE") else "")
            when = " after the probe reported the end of the run" if self.ended else " without a result from the probe"
            r.findings.append(codes.tool_finding(
                "TW906", "The script's process %s%s. Last output:\n%s"
                % (how, when, _last_output(stderr_tail, stdout_tail)), location=Location(r.script, 1, 1),
                stderr=stderr_tail[-4000:], stdout=stdout_tail[-4000:], exit_status=returncode))
        for n, text in enumerate(self.probe_errors, start=1):
            finding = codes.tool_finding(
                "TW910", "Internal error in Tapewatch: results may be incomplete. %s"
                % (text.strip().splitlines() or [""])[-1], traceback=text)
            finding.id = "tw910-event-%d" % n
            r.findings.append(finding)


# Once the lines read so far are handled, reading pauses this long: the probe writes (and flushes)
# each event as it happens, so that a crash loses none, and waking for each of thousands of lines
# cost more CPU than the probe's own work on them; the pipe holds what comes meanwhile.
EVENT_BATCH_SECONDS = 0.005


async def _read_events(pipe, collector: _EventCollector) -> None:
    reader, transport = await _reader(asyncio.get_running_loop(), pipe, limit=EVENT_LINE_LIMIT)
    try:
        while True:
            try:
                line = await reader.readline()
            except (asyncio.LimitOverrunError, ValueError):
                collector.garbage += 1
                continue
            if not line:
                break
            collector.line(line)
            if not _buffered_line(reader):
                transport.pause_reading()
                try:
                    await asyncio.sleep(EVENT_BATCH_SECONDS)
                finally:
                    transport.resume_reading()
    finally:
        transport.close()


def _buffered_line(reader: asyncio.StreamReader) -> bool:
    """A whole line (or the end) is already in the reader's buffer."""
    buffer = getattr(reader, "_buffer", None)
    return buffer is None or b"\n" in buffer or reader.at_eof()


def _last_output(stderr_tail: str, stdout_tail: str, lines: int = 12) -> str:
    """The last lines the script wrote, for TW906: its stderr (Warp's start-up notices left out, they are
    not the cause), and its stdout too when that is where it said something."""
    def tail(text: str) -> List[str]:
        return [line for line in text.strip().splitlines() if not _NOISE.search(line)][-lines:]

    err, out = tail(stderr_tail), tail(stdout_tail)
    if err and out:
        return "\n".join(["(stderr)"] + err + ["(stdout)"] + out)
    if out:
        return "\n".join(["(stdout)"] + out)
    return "\n".join(err) or "(none on stdout or stderr)"


class _Tail:
    def __init__(self) -> None:
        self.buf = bytearray()

    def add(self, data: bytes) -> None:
        self.buf += data
        if len(self.buf) > TAIL_BYTES:
            del self.buf[: len(self.buf) - TAIL_BYTES]

    def text(self) -> str:
        return self.buf.decode("utf-8", "replace")


async def _pump(stream, name: str, tail: _Tail, on_output: Optional[OutputCallback]) -> None:
    # Incremental: a UTF-8 character split across two reads is decoded whole.
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    while True:
        chunk = await stream.read(8192)
        if not chunk:
            break
        tail.add(chunk)
        if on_output is not None:
            text = decoder.decode(chunk)
            if text:
                on_output(name, text)
    if on_output is not None:
        rest = decoder.decode(b"", final=True)
        if rest:
            on_output(name, rest)


def _kill_tree(proc, tree: Optional[Descendants] = None) -> None:
    if tree is not None:
        tree.scan()
    kill_group(proc.pid)
    with contextlib.suppress(ProcessLookupError):
        proc.kill()
    if tree is not None:
        tree.kill_all()


async def list_devices(python: str, timeout: float = 60.0) -> dict:
    """Devices the user's Warp reports: ``{"devices": [...], "warp_version": ...}``."""
    read_fd, write_fd = os.pipe()
    env = probe_env(RunRequest(script=""))
    try:
        proc = await asyncio.create_subprocess_exec(
            python, "-m", "tapewatch.probe", "--events", "fd:%d" % write_fd, "--list-devices",
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE, env=env, pass_fds=(write_fd,), start_new_session=True)
    except OSError as exc:
        os.close(read_fd)
        os.close(write_fd)
        return {"devices": [], "warp_version": None, "error": str(exc)}
    os.close(write_fd)
    out: dict = {"devices": [], "warp_version": None}
    try:
        _, stderr = await asyncio.wait_for(proc.communicate(), timeout)
    except asyncio.TimeoutError:
        _kill_tree(proc)
        os.close(read_fd)
        return dict(out, error="timed out")
    with os.fdopen(read_fd, "rb") as f:
        for line in f:
            with contextlib.suppress(ValueError, KeyError):
                event = json.loads(line)
                if event["event"] == "devices":
                    out = {"devices": event["devices"], "warp_version": event["warp_version"]}
                elif event["event"] == "finding":
                    out["error"] = event["finding"]["message"]
    if not out["devices"] and "error" not in out:
        out["error"] = stderr.decode("utf-8", "replace")[-2000:]
    return out
