"""After a finding: ``tapewatch.bisect`` and ``tapewatch.compareWithPrevious``.

``tapewatch.bisect [uri, knob?]`` runs ``tapewatch bisect`` on the script
(several FD runs, each a harness on a copy with a shorter horizon) with
work-done progress, cancellable like a run, and publishes its one finding
(TW410, TW400 or TW406) in its own diagnostics layer, replaced by the next
bisection and withdrawn by ``tapewatch.clearDiagnostics``.

``tapewatch.compareWithPrevious [uri]`` compares the script's two newest
kept runs (``.tapewatch/runs/``, see ``evidence``): new, fixed and unchanged
findings and how the FD errors moved, as data and as a Markdown report.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any, Dict, List, Optional

from pygls.exceptions import JsonRpcInvalidParams

from .. import bisect as bisection, evidence
from . import uris
from .convert import LineSource, entry_of
from .diagnostics import DiagnosticsFeature
from .runs import RunProgress, uri_argument
from .server import Feature, TapewatchServer
from .settings import SettingsFeature

BISECT = "tapewatch.bisect"
COMPARE = "tapewatch.compareWithPrevious"
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
        path = _script(args, COMPARE)
        runs = evidence.history(path)
        if len(runs) < 2:
            return {"compared": False, "runs": len(runs),
                    "report": "# %s\n\nFewer than two kept runs of this script (%d): run verification again after "
                              "a change, then compare.\n" % (os.path.basename(path), len(runs))}
        (before_path, before), (after_path, after) = runs[-2], runs[-1]
        root = evidence.project_root(path)
        diff = _compare_records(before, after, root)
        return {"compared": True, "before": {"path": before_path, "time": before.get("time")},
                "after": {"path": after_path, "time": after.get("time")},
                "new": diff["new"], "fixed": diff["fixed"], "unchanged": diff["unchanged"], "fd": diff["fd"],
                "report": report(os.path.basename(path), before, after, diff)}


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
    """The comparison as Markdown, for a client to show as a document."""
    lines = ["# %s: this run against the previous one" % name, "",
             "Previous run: %s (Warp %s, %s) · this run: %s (Warp %s, %s)" % (
                 before.get("time"), before.get("warp_version"), before.get("device"),
                 after.get("time"), after.get("warp_version"), after.get("device")), "",
             "**%d new, %d fixed, %d unchanged**" % (len(diff["new"]), len(diff["fixed"]), len(diff["unchanged"])),
             ""]
    for title, items in (("New", diff["new"]), ("Fixed", diff["fixed"])):
        if items:
            lines += ["## %s" % title, ""]
            lines += ["- `%s` %s:%s — %s" % (o.get("code"), o.get("path"), o.get("line"),
                                             str(o.get("message", "")).splitlines()[0][:200]) for o in items]
            lines.append("")
    if diff["fd"]:
        lines += ["## Finite-difference errors", "", "| finding | before | after |", "|---|---|---|"]
        lines += ["| %s %s | %.3g | %.3g |" % (m["key"][0], m["key"][2], m["before"], m["after"]) for m in diff["fd"]]
        lines.append("")
    return "\n".join(lines)


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
    return feature
