"""Verification runs: ``tapewatch.runVerification``, ``tapewatch.listDevices``, run-on-save.

A run is ``runner.run_probe`` awaited on the event loop (the probe is a
subprocess; nothing blocks).  One run per document: a new one cancels the
old one first.  A run is cancelled by ``$/cancelRequest`` for its command,
by ``window/workDoneProgress/cancel`` for its progress token, by a newer run
or by shutdown; cancelling the task makes the runner kill the process tree.

Progress goes to the client's ``workDoneToken`` or, without one, to a token
the server creates when the client supports it.  The script's output is
streamed as ``window/logMessage`` (batched and bounded, see ``output``).
Every run ends with ``tapewatch/runFinished`` ``{uri, summary}``; the
command returns the summary.  Findings become diagnostics through the
diagnostics feature.  A cancelled run publishes the findings it reported
before the cancel (the summary says how many); with none, or when a newer
run of the same file took over, the previous diagnostics stay.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
import os
import time
import uuid
from typing import Any, Dict, List, Optional

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from .. import evidence, runner
from ..model import Finding, Location, Related
from ..runner import RunRequest, RunResult
from . import kept, uris
from .convert import LineSource, entry_of
from .output import OutputBatcher
from .project_config import ProjectConfigFeature
from .diagnostics import DiagnosticsFeature
from .settings import SettingsFeature
from .server import Feature, TapewatchServer

RUN_FINISHED = "tapewatch/runFinished"
RUN_VERIFICATION = "tapewatch.runVerification"
LIST_DEVICES = "tapewatch.listDevices"
CLEAR_DIAGNOSTICS = "tapewatch.clearDiagnostics"
REPORT_INTERVAL = 0.25  # seconds between progress reports


@dataclass
class Run:
    uri: str
    path: str
    origin: str  # "command" or "save"
    token: Any = None
    task: Optional[asyncio.Task] = None
    done: asyncio.Future = field(default_factory=lambda: asyncio.get_running_loop().create_future())
    cancel_reason: str = ""

    def cancel(self, reason: str) -> None:
        if not self.cancel_reason:
            self.cancel_reason = reason
        if self.task is not None and not self.task.done():
            self.task.cancel()


class RunProgress:
    """Work-done progress for one run; silent when the client has no token."""

    def __init__(self, server: TapewatchServer, token: Any, on_cancel):
        self.server = server
        self.token = token
        self.on_cancel = on_cancel
        self.created = False
        self._last_report = 0.0
        self._pending: Optional[str] = None
        self._handle: Optional[asyncio.TimerHandle] = None

    async def begin(self, title: str, message: str) -> None:
        progress = self.server.work_done_progress
        if self.token is None and self.server.supports("window.work_done_progress"):
            token = "tapewatch-run-" + uuid.uuid4().hex
            try:
                # Shielded: a run cancelled while the client decides must not cancel the
                # pending request itself (pygls would answer the command with "CANCELLED").
                await asyncio.wait_for(asyncio.shield(progress.create_async(token)), 5.0)
                self.token, self.created = token, True
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 (progress is optional)
                self.server.log("tapewatch: no progress for this run: %s" % exc)
        if self.token is None:
            return
        progress.begin(self.token, types.WorkDoneProgressBegin(title=title, message=message, cancellable=True))
        fut = progress.tokens.get(self.token)
        if fut is not None:
            fut.add_done_callback(lambda f: self.on_cancel() if f.cancelled() else None)

    def report(self, message: str) -> None:
        """Throttled: at most one report per REPORT_INTERVAL, the latest wins."""
        if self.token is None:
            return
        self._pending = message
        now = time.monotonic()
        if now - self._last_report >= REPORT_INTERVAL:
            self._send_report()
        elif self._handle is None:
            loop = asyncio.get_running_loop()
            self._handle = loop.call_later(REPORT_INTERVAL - (now - self._last_report), self._send_report)

    def _send_report(self) -> None:
        self._handle = None
        if self._pending is None or self.token is None:
            return
        self._last_report = time.monotonic()
        message, self._pending = self._pending, None
        self.server.work_done_progress.report(self.token, types.WorkDoneProgressReport(message=message))

    def end(self, message: str) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        if self.token is None:
            return
        self.server.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=message))
        self.server.work_done_progress.tokens.pop(self.token, None)


class RunsFeature(Feature):
    name = "runs"

    def __init__(self, server: TapewatchServer):
        super().__init__(server)
        self.active: Dict[str, Run] = {}  # path key -> the run in progress
        self.results: Dict[str, Dict[str, Any]] = {}  # path key -> {"uri", "result"}
        self.harness_layers: Dict[str, str] = {}  # script key -> the harness whose findings it published
        self.restoring: set = set()  # path keys whose kept run is being read
        # Cleared by the user in this session: their kept runs are not restored again until a reload.
        self.no_restore: set = set()
        self.no_restore_all = False

    # -- public -----------------------------------------------------------

    def last_result(self, uri: str) -> Optional[Dict[str, Any]]:
        path = uris.to_path(uri)
        return self.results.get(uris.key(path)) if path else None

    async def command_run(self, *args: Any) -> Dict[str, Any]:
        uri = uri_argument(args)
        if uri is None:
            raise JsonRpcInvalidParams("%s expects [uri]" % RUN_VERIFICATION)
        if uris.to_path(uri) is None:
            message = "Tapewatch runs files on disk: save %s first" % uri
            self.server.show(message, types.MessageType.Error)
            raise JsonRpcInvalidParams(message)
        params = self.server.execute_params()
        token = params.work_done_token if params is not None else None
        return await self.start(uri, token=token, request_id=self.server.current_request_id(), origin="command")

    async def start(self, uri: str, token: Any = None, request_id: Any = None,
                    origin: str = "command") -> Dict[str, Any]:
        path = uris.to_path(uri)
        assert path is not None
        key = uris.key(path)
        diagnostics = self.server.get_feature(DiagnosticsFeature)
        if diagnostics is not None:
            diagnostics.spellings.remember(uri)
        run = Run(uri=uri, path=os.path.abspath(path), origin=origin, token=token)
        previous = self.active.get(key)
        self.active[key] = run
        remove_hook = lambda: None  # noqa: E731
        if request_id is not None:
            remove_hook = self.server.on_cancel_request(request_id, lambda: run.cancel("cancelled by the client"))
        try:
            if previous is not None:
                previous.cancel("a newer run of the same file started")
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(previous.done), 10.0)
            if run.cancel_reason:
                summary = self._cancelled_summary(run)
                self._finish_notify(run, summary)
                return summary
            run.task = asyncio.ensure_future(self._execute(run))
            return await run.task
        finally:
            remove_hook()
            if not run.done.done():
                run.done.set_result(None)
            if self.active.get(key) is run:
                del self.active[key]

    # -- the run ------------------------------------------------------------

    def _configured(self, path: str, findings: list) -> list:
        """``findings`` of a run of ``path`` with ``[tool.tapewatch]`` applied, as the CLI applies it."""
        project = self.server.get_feature(ProjectConfigFeature)
        return project.for_path(path).apply(findings, named=[path]) if project is not None else findings

    async def _execute(self, run: Run) -> Dict[str, Any]:
        settings_feature = self.server.require(SettingsFeature)
        settings, folder = settings_feature.for_path(run.path)
        req = RunRequest(script=run.path, python=settings.interpreter, device=settings.device,
                         timeout=settings.timeout, cwd=settings.cwd, args=list(settings.args),
                         env=dict(settings.env), check_launches=settings.check_launches)
        name = os.path.basename(run.path)
        if req.cwd and not os.path.isdir(req.cwd):
            self.server.show("Tapewatch settings: tapewatch.cwd: %s is not a folder; using the script's folder"
                             % req.cwd, types.MessageType.Warning)
            req.cwd = None
        diagnostics = self.server.get_feature(DiagnosticsFeature)
        snap = diagnostics.snapshot() if diagnostics is not None else None
        progress = RunProgress(self.server, run.token, lambda: run.cancel("cancelled from the progress UI"))
        output = OutputBatcher(lambda text: self.server.log(text, types.MessageType.Log))
        counts = {"findings": 0, "tapes": 0}
        seen: set = set()  # finding ids: a revised finding comes again with its id (read_replay)
        if folder is None:
            self.server.log("tapewatch: %s is outside the workspace folders; using the window's settings" % run.path)
        self.server.log("tapewatch: running %s on %s with %s" % (run.path, req.device, req.python),
                        types.MessageType.Info)

        def on_event(event: dict) -> None:
            kind = event.get("event")
            if kind == "start":
                progress.report("%s: Warp %s on %s" % (name, event.get("warp_version") or "?",
                                                        event.get("device") or req.device))
            elif kind == "finding":
                seen.add((event.get("finding") or {}).get("id") or len(seen))
                n = counts["findings"] = len(seen)
                progress.report("%s: %d finding%s so far" % (name, n, "" if n == 1 else "s"))
            elif kind == "tape":
                counts["tapes"] += 1
                progress.report("%s: %d finding%s so far, %d tape%s captured"
                                % (name, counts["findings"], "" if counts["findings"] == 1 else "s",
                                   counts["tapes"], "" if counts["tapes"] == 1 else "s"))

        # Filled as events arrive: a cancelled run still shows what it found so far.
        verification = runner.Verification(RunResult(script=run.path))
        try:
            await progress.begin("Tapewatch", "%s on %s" % (name, req.device))
            await runner.run_verification(
                req, on_output=output.add, on_event=on_event, into=verification,
                # An FD harness written for this script: its numbers join the run's findings.
                on_harness=lambda h: progress.report("%s: FD check with %s" % (name, os.path.basename(h))))
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and hasattr(task, "uncancel"):
                task.uncancel()
            output.close()
            if not run.cancel_reason:
                run.cancel_reason = "cancelled"
            verification.result.outcome = "cancelled"
            partial = verification.combined()
            if not _superseded(run.cancel_reason) and partial.findings:
                self._publish(run, req, verification, snap)
            summary = self._cancelled_summary(run, req, partial=partial)
            n = summary["findings"]
            progress.end("%s: %s, %d finding%s so far" % (name, run.cancel_reason, n, "" if n == 1 else "s"))
            self.server.log("tapewatch: %s: run %s after %d finding%s"
                            % (name, run.cancel_reason, n, "" if n == 1 else "s"), types.MessageType.Info)
            self._finish_notify(run, summary)
            return summary
        except Exception as exc:
            output.close()
            progress.end("%s: the run failed: %s" % (name, exc))
            self._finish_notify(run, self._cancelled_summary(run, req, status="failed"))
            raise
        output.close()
        result = verification.combined()
        try:
            self._publish(run, req, verification, snap)
            summary = dict(result.summary(), uri=run.uri)
            self.results[uris.key(run.path)] = {"uri": run.uri, "result": result}
            if not result.tool_failed:
                # .tapewatch/runs/: before/after a fix, for `--baseline`, Compare and the restore after a reload.
                kept, why = evidence.keep(result)
                if kept:
                    summary["evidence"] = kept
                else:
                    summary["evidence_error"] = why or "unknown reason"
                    self.server.log("tapewatch: the run of %s could not be kept under .tapewatch/runs: %s"
                                    % (name, summary["evidence_error"]), types.MessageType.Warning)
        except Exception as exc:
            progress.end("%s: could not show the results: %s" % (name, exc))
            self._finish_notify(run, dict(summary, status="failed"))
            raise
        line = one_line(name, result)
        progress.end(line)
        self.server.log("tapewatch: " + line, types.MessageType.Info)
        self._finish_notify(run, summary)
        return summary

    def _publish(self, run: Run, req: RunRequest, verification: runner.Verification, snap: Any) -> None:
        """The script's findings replace its last run's; the harness's FD findings replace the
        harness's own layer, so running the harness alone and then the script never shows an
        FD failure twice."""
        diagnostics = self.server.get_feature(DiagnosticsFeature)
        if diagnostics is None:
            return
        src = LineSource(buffers=(lambda p: snap.saved.get(uris.key(p))) if snap else None,
                         units=self.server.client_units)
        result, harness = verification.result, verification.harness
        layers = {run.path: result.findings}
        if harness is not None:
            layers[harness] = verification.checked.findings if verification.checked is not None else []
            self.harness_layers[uris.key(run.path)] = harness
        elif result.outcome != "cancelled":  # the harness is gone (or was not run): so are its numbers
            gone = self.harness_layers.pop(uris.key(run.path), None)
            if gone is not None:
                layers[gone] = []
        # The harness file shows its own result: one line on its header, the verdicts on the parameters.
        if harness is not None and verification.checked is not None:
            layers[harness] = layers[harness] + harness_result(harness, run.path, verification.checked.findings)
        elif runner.is_harness(run.path) and result.outcome != "cancelled":
            script = next((f.location.path for f in result.findings
                           if f.code in FD_VERDICTS and f.location is not None), None)
            layers[run.path] = layers[run.path] + harness_result(run.path, script, result.findings)
        for script, findings in layers.items():
            findings = self._configured(run.path, findings)
            entries = [entry_of(f, result.script, run.uri, src, cwd=req.cwd or os.path.dirname(run.path),
                                kind="lint" if f.data.get("source") == "lint" else "run")
                       for f in findings]
            diagnostics.set_run(script, entries, snap)

    def _cancelled_summary(self, run: Run, req: Optional[RunRequest] = None,
                           status: str = "cancelled", partial: Optional[RunResult] = None) -> Dict[str, Any]:
        result = partial or RunResult(script=run.path, device=req.device if req else None, outcome="cancelled")
        result.outcome = "cancelled"
        summary = dict(result.summary(), uri=run.uri)
        summary["status"] = status
        if run.cancel_reason:
            summary["reason"] = run.cancel_reason
        return summary

    def _finish_notify(self, run: Run, summary: Dict[str, Any]) -> None:
        self.server.protocol.notify(RUN_FINISHED, {"uri": run.uri, "summary": summary})

    # -- restoring a kept run -------------------------------------------------

    def document_open(self, uri: str) -> None:
        path = uris.to_path(uri)
        if path is None or not path.endswith((".py", ".pyw")):
            return
        key = uris.key(path)
        if key in self.results or key in self.active or key in self.restoring or key in self.no_restore \
                or self.no_restore_all:
            return
        self.restoring.add(key)
        self.server.spawn(self.name, "restore the last kept run", self.restore(uri, os.path.abspath(path)))

    async def restore(self, uri: str, path: str) -> Optional[Dict[str, Any]]:
        """After a reload: the newest kept run of an unchanged script is shown again, marked restored
        (its diagnostics, the status, ``runFinished`` with ``restored``).  Never over a run of this session."""
        key = uris.key(path)
        try:
            found = await asyncio.to_thread(_restorable, path)
        finally:
            self.restoring.discard(key)
        if found is None or key in self.results or key in self.active or key in self.no_restore or self.no_restore_all:
            return None
        kept_path, record, findings = found
        findings = self._configured(path, findings)
        diagnostics = self.server.get_feature(DiagnosticsFeature)
        root = evidence.project_root(path)
        result = RunResult(script=path, findings=findings, warp_version=record.get("warp_version") or "",
                           device=record.get("device") or "")
        summary = kept.summary_of(record, uri, kept_path, findings)
        self.results[key] = {"uri": uri, "result": result, "restored": summary["restored"]}
        if diagnostics is not None:
            src = LineSource(units=self.server.client_units)
            entries = [entry_of(f, path, uri, src, cwd=root) for f in findings]
            diagnostics.set_run(path, entries)
        self.server.log("tapewatch: %s: restored the run kept at %s (the script is unchanged since)"
                        % (os.path.basename(path), summary["restored"]["readable_time"]), types.MessageType.Info)
        self.server.protocol.notify(RUN_FINISHED, {"uri": uri, "summary": summary})
        return summary

    # -- hooks --------------------------------------------------------------

    def document_save(self, uri: str) -> None:
        path = uris.to_path(uri)
        if path is None or not path.endswith((".py", ".pyw")):
            return
        settings, _ = self.server.require(SettingsFeature).for_path(path)
        if not settings.run_on_save:
            return
        text = self.server.open_text(uri)
        if text is None:
            text = _read_small(path)
        if not text or "Tape" not in text:
            return
        self.server.spawn(self.name, "run on save", self.start(uri, origin="save"))

    async def shutdown(self) -> None:
        runs = list(self.active.values())
        for run in runs:
            run.cancel("the server is shutting down")
        if runs:
            await asyncio.wait([asyncio.shield(r.done) for r in runs], timeout=5.0)

    def clear(self, *args: Any) -> Dict[str, Any]:
        """``tapewatch.clearDiagnostics`` ``[uri?]``: withdraw run diagnostics (one script and its
        harness, or all); the remembered results (tape graph) go with them."""
        uri = uri_argument(args)
        path = uris.to_path(uri) if uri else None
        if uri is not None and path is None:
            raise JsonRpcInvalidParams("%s expects [uri] of a file" % CLEAR_DIAGNOSTICS)
        diagnostics = self.server.get_feature(DiagnosticsFeature)
        scripts: List[Optional[str]] = [None]  # None: every script
        if path is not None:
            harness = self.harness_layers.pop(uris.key(path), None)
            scripts = [path, harness] if harness else [path]
            self.results.pop(uris.key(path), None)
            self.no_restore.add(uris.key(path))
        else:
            self.harness_layers.clear()
            self.results.clear()
            self.no_restore_all = True
        withdrawn = 0
        if diagnostics is not None:
            for script in scripts:
                withdrawn += diagnostics.clear_runs(script)
        return {"cleared": withdrawn}

    async def list_devices(self, *args: Any) -> Dict[str, Any]:
        uri = uri_argument(args)
        settings, _ = self.server.require(SettingsFeature).for_uri(uri)
        out = await runner.list_devices(settings.interpreter, timeout=min(settings.timeout, 120.0))
        if out.get("error"):
            self.server.log("tapewatch: listDevices with %s: %s" % (settings.interpreter, out["error"]),
                            types.MessageType.Warning)
        return out


def one_line(name: str, result: RunResult) -> str:
    counts = result.counts()
    parts = ["%d %s%s" % (n, sev, "s" if n != 1 else "") for sev, n in counts.items() if n]
    if result.status == "failed":
        failing = next((f for f in result.findings if f.code in runner.TOOL_FAILURES), None)
        what = "%s %s" % (failing.code, failing.message.splitlines()[0]) if failing else result.outcome
        return "%s: failed: %s" % (name, what[:200])
    return "%s on %s with Warp %s in %.1fs: %s" % (
        name, result.device or "?", result.warp_version or "?", result.seconds, ", ".join(parts) or "no findings")


FD_VERDICTS = ("TW400", "TW401", "TW402", "TW409")
_VERDICT_RANK = {"TW401": 0, "TW402": 1, "TW409": 2, "TW400": 3}
_VERDICT_WORD = {"TW400": "PASS", "TW401": "FAIL", "TW402": "FAIL", "TW409": "INCONCLUSIVE"}


def harness_result(harness: str, script: Optional[str], findings: List[Finding]) -> List[Finding]:
    """One finding on the harness file's first line that says what the harness found (the verdicts
    themselves sit on the parameters' allocations in the script, related here)."""
    verdicts = sorted((f for f in findings if f.code in FD_VERDICTS), key=lambda f: _VERDICT_RANK[f.code])
    if not verdicts:
        return []
    worst = verdicts[0]
    parts = ["`%s` %s" % (f.data.get("parameter") or "?", _VERDICT_WORD[f.code]) for f in verdicts]
    failing = sum(1 for f in verdicts if f.code in ("TW401", "TW402"))
    head = ("%d of %d parameter%s FAIL" % (failing, len(verdicts), "" if len(verdicts) == 1 else "s") if failing
            else "every parameter PASS" if worst.code == "TW400" else "no parameter FAIL")
    where = (" The verdicts are on the parameters in %s." % os.path.basename(script)) if script else ""
    message = "This harness's result: %s (%s).%s" % (head, ", ".join(parts), where)
    related = [Related(f.location, "%s %s" % (f.code, _VERDICT_WORD[f.code]), "verdict")
               for f in verdicts if f.location is not None]
    return [Finding(code=worst.code, message=message, location=Location(harness, 1, 1), severity=worst.severity,
                    related=related, id="harness-result", data={"source": "harness-result"})]


def _restorable(path: str):
    found = kept.restorable(path)
    if found is None:
        return None
    kept_path, record = found
    return kept_path, record, kept.findings_of(record, evidence.project_root(path))


def _superseded(reason: str) -> bool:
    """A newer run of the same file publishes its own findings; this one's partial set would flicker."""
    return reason.startswith("a newer run")


def uri_argument(args: Any) -> Optional[str]:
    if not args:
        return None
    first = args[0]
    if isinstance(first, str):
        return first
    if isinstance(first, dict) and isinstance(first.get("uri"), str):
        return first["uri"]
    return None


def _read_small(path: str) -> Optional[str]:
    try:
        if os.path.getsize(path) > 4 * 1024 * 1024:
            return None
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    except OSError:
        return None


def setup(server: TapewatchServer) -> RunsFeature:
    feature = server.add_feature(RunsFeature(server))
    server.command(feature.name, RUN_VERIFICATION)(feature.command_run)
    server.command(feature.name, LIST_DEVICES)(feature.list_devices)
    server.command(feature.name, CLEAR_DIAGNOSTICS)(feature.clear)
    return feature
