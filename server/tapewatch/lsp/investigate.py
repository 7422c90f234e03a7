"""After a finding: ``tapewatch.bisect`` and ``tapewatch.compareWithPrevious``.

``tapewatch.bisect [uri, knob?]`` runs ``tapewatch bisect`` on the script
(several FD runs, each a harness on a copy with a shorter horizon) with
work-done progress, cancellable like a run, and publishes its one finding
(TW410, TW400 or TW406) in its own diagnostics layer, replaced by the next
bisection and withdrawn by ``tapewatch.clearDiagnostics``.

``tapewatch.compareWithPrevious [uri, before?, after?]`` compares two kept
runs of the script (``.tapewatch/runs/``, see ``evidence``): by default the
newest with the newest earlier one that had findings; new, fixed and
unchanged findings and how the FD errors moved, as data and as a Markdown
report (``evidence.comparison_markdown``, times readable).
``tapewatch.listRuns [uri]`` lists the kept runs for a picker.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any, Dict, List, Optional, Tuple

from pygls.exceptions import JsonRpcInvalidParams

from .. import bisect as bisection, evidence
from . import kept, uris
from .convert import LineSource, entry_of
from .diagnostics import DiagnosticsFeature
from .runs import RunProgress, uri_argument
from .server import Feature, TapewatchServer
from .settings import SettingsFeature

BISECT = "tapewatch.bisect"
COMPARE = "tapewatch.compareWithPrevious"
LIST_RUNS = "tapewatch.listRuns"
BISECT_LAYER = "#bisect"  # the diagnostics layer of a script's last bisection: its path + this


class InvestigateFeature(Feature):
    name = "investigate"

    def __init__(self, server: TapewatchServer):
        super().__init__(server)
        self.active: Dict[str, asyncio.Task] = {}

    async def bisect(self, *args: Any) -> Dict[str, Any]:
        path = _script(args, BISECT)
        knob = args[1] if len(args) > 1 and isinstance(args[1], str) and args[1] else None
        settings, _ = self.server.require(SettingsFeature).for_path(path)
        key = uris.key(path)
        previous = self.active.pop(key, None)
        if previous is not None:
            previous.cancel()
        params = self.server.execute_params()
        name = os.path.basename(path)
        progress = RunProgress(self.server, params.work_done_token if params else None,
                               lambda: task.cancel() if task is not None else None)
        task: Optional[asyncio.Task] = None
        await progress.begin("Tapewatch: bisect", "%s: FD at the full horizon" % name)

        def on_step(step: dict) -> None:
            progress.report("%s: %s steps: %s" % (name, step.get("k"), step.get("verdict")))

        task = asyncio.ensure_future(bisection.bisect(path, settings.interpreter, knob,
                                                      timeout=settings.timeout, on_step=on_step))
        self.active[key] = task
        running = task

        def stop() -> None:
            running.cancel()

        remove_hook = self.server.on_cancel_request(self.server.current_request_id(), stop)
        try:
            findings = await task
        except asyncio.CancelledError:
            progress.end("%s: bisection cancelled" % name)
            raise
        finally:
            remove_hook()
            if self.active.get(key) is task:
                del self.active[key]
        diagnostics = self.server.get_feature(DiagnosticsFeature)
        if diagnostics is not None:
            src = LineSource(units=self.server.client_units)
            uri = diagnostics.spellings.uri(path)
            entries = [entry_of(f, path, uri, src) for f in findings]
            diagnostics.set_run(path + BISECT_LAYER, entries)
        first = findings[0] if findings else None
        progress.end("%s: %s" % (name, first.message.split(":")[0] if first else "no result"))
        return {"uri": diagnostics.spellings.uri(path) if diagnostics is not None else None,
                "findings": [f.to_json() for f in findings]}

    def compare(self, *args: Any) -> Dict[str, Any]:
        """``[uri, before?, after?]``: ``before`` and ``after`` name kept runs of the script (paths from
        ``tapewatch.listRuns``); by default ``after`` is the newest and ``before`` the newest earlier run
        that had findings (an error or a warning), else the one before the newest."""
        path = _script(args, COMPARE)
        runs = evidence.history(path)
        if len(runs) < 2:
            return {"compared": False, "runs": len(runs),
                    "report": "# %s\n\nFewer than two kept runs of this script (%d): run verification again after "
                              "a change, then compare.\n" % (os.path.basename(path), len(runs))}
        by_path = dict(runs)
        chosen = [a if isinstance(a, str) and a else None for a in list(args[1:3]) + [None, None]][:2]
        for name in chosen:
            if name is not None and name not in by_path:
                raise JsonRpcInvalidParams("%s: %s is not a kept run of %s" % (COMPARE, name, path))
        after_path = chosen[1] or runs[-1][0]
        before_path = chosen[0] or default_before(runs, after_path)
        before, after = by_path[before_path], by_path[after_path]
        root = evidence.project_root(path)
        diff = _compare_records(before, after, root)
        return {"compared": True,
                "before": {"path": before_path, "time": before.get("time"),
                           "readable_time": kept.readable_time(before.get("time"))},
                "after": {"path": after_path, "time": after.get("time"),
                          "readable_time": kept.readable_time(after.get("time"))},
                "new": diff["new"], "fixed": diff["fixed"], "unchanged": diff["unchanged"], "fd": diff["fd"],
                "report": report(os.path.basename(path), _readable(before), _readable(after), diff)}

    async def list_runs(self, *args: Any) -> Dict[str, Any]:
        """``tapewatch.listRuns [uri]``: the script's kept runs, newest first (``kept.listing``)."""
        path = _script(args, LIST_RUNS)
        return await asyncio.to_thread(kept.listing, path)


def default_before(runs: List[Tuple[str, dict]], after_path: str) -> str:
    """The run to compare ``after_path`` with: the newest earlier one that had findings, else the one before."""
    limit = dict(runs)[after_path].get("time") or ""
    earlier = [(p, r) for p, r in runs if p != after_path and (r.get("time") or "") <= limit]
    if not earlier:
        earlier = [(p, r) for p, r in runs if p != after_path]
    with_findings = [p for p, r in earlier if kept.has_findings(r)]
    return with_findings[-1] if with_findings else earlier[-1][0]


def _readable(record: dict) -> dict:
    return dict(record, time=kept.readable_time(record.get("time")))


def _compare_records(before: dict, after: dict, root: str) -> Dict[str, list]:
    from ..model import Finding  # noqa: PLC0415

    findings: List[Finding] = []
    for obj in after.get("findings", []):
        try:
            findings.append(Finding.from_json(obj))
        except Exception:  # noqa: BLE001 (a kept file edited by hand: compare what parses)
            continue
    return evidence.compare(before, findings, root)


def report(name: str, before: dict, after: dict, diff: Dict[str, list]) -> str:
    """The comparison as Markdown, for a client to show as a document: every user string in a code span."""
    return evidence.comparison_markdown(name, before, after, diff)


def _script(args: Any, command: str) -> str:
    uri = uri_argument(args)
    path = uris.to_path(uri) if uri is not None else None
    if path is None or not os.path.isfile(path):
        raise JsonRpcInvalidParams("%s expects [uri] of a saved Python file" % command)
    return path


def setup(server: TapewatchServer) -> InvestigateFeature:
    feature = server.add_feature(InvestigateFeature(server))
    server.command(feature.name, BISECT)(feature.bisect)
    server.command(feature.name, COMPARE)(feature.compare)
    server.command(feature.name, LIST_RUNS)(feature.list_runs)
    return feature
