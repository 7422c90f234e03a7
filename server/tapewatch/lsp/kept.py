"""Kept runs (``.tapewatch/runs/``, see ``tapewatch.evidence``) as the editor uses them.

- ``restorable``: the newest kept run of a script, when the script is unchanged
  since (same hash): after a reload the editor shows it again, marked restored.
- ``findings_of``: a kept run's findings as ``Finding`` objects, paths absolute.
- ``summary_of``: a run summary (the shape of ``runFinished``) for a kept run.
- ``listing``: the kept runs of a script for a picker (``tapewatch.listRuns``).
- ``readable_time``: "2024-05-01 14:02:31" (local time) for an ISO time.

Reading only; every file is checked by ``evidence.load`` (a kept run may come
from anyone).  Called off the event loop (``asyncio.to_thread``).
"""

from __future__ import annotations

import datetime
import os
from typing import Any, Dict, List, Optional, Tuple

from .. import evidence
from ..model import Finding

SEVERITIES = ("error", "warning", "information", "hint")


def readable_time(value: Any) -> str:
    """An ISO time as the user reads it: local time to the second; anything else as it is."""
    if not isinstance(value, str):
        return "an unknown time"
    try:
        when = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return value
    if when.tzinfo is not None:
        when = when.astimezone()
    return when.strftime("%Y-%m-%d %H:%M:%S")


def has_findings(record: dict) -> bool:
    """A kept run that had something to fix: an error or a warning (information is not a bug)."""
    counts = record.get("counts") or {}
    return any(isinstance(n, int) and n > 0 for n in (counts.get("error"), counts.get("warning")))


def restorable(script: str) -> Optional[Tuple[str, dict]]:
    """The newest kept run of ``script`` if the script has not changed since it ran, else None."""
    current = evidence.script_hash(script)
    if current is None:
        return None
    runs = evidence.history(script)
    if not runs:
        return None
    path, record = runs[-1]
    if record.get("script_hash") != current or record.get("status") == "failed":
        return None
    return path, record


def findings_of(record: dict, root: str) -> List[Finding]:
    """The kept findings (static lints left out: the live lints show those), paths made absolute."""
    out = []
    for obj in record.get("findings") or []:
        try:
            f = Finding.from_json(obj)
        except Exception:  # noqa: BLE001 (a kept file edited by hand: restore what parses)
            continue
        if f.data.get("source") == "lint":
            continue
        if f.location is not None and f.location.path and not os.path.isabs(f.location.path):
            f.location.path = os.path.normpath(os.path.join(root, f.location.path))
        for r in f.related:
            if r.location.path and not os.path.isabs(r.location.path):
                r.location.path = os.path.normpath(os.path.join(root, r.location.path))
        out.append(f)
    return out


def summary_of(record: dict, uri: str, kept_path: str, findings: List[Finding]) -> Dict[str, Any]:
    """The ``runFinished`` summary of a kept run shown again, with ``restored`` saying from when."""
    counts = {k: 0 for k in SEVERITIES}
    for f in findings:
        if f.severity in counts:
            counts[f.severity] += 1
    status = "findings" if counts["error"] or counts["warning"] else "ok"
    seconds = record.get("seconds")
    return {
        "uri": uri,
        "status": status,
        "warp_version": record.get("warp_version") or "",
        "device": record.get("device") or "",
        "seconds": seconds if isinstance(seconds, (int, float)) else None,
        "exit_code": None,
        "counts": counts,
        "findings": len(findings),
        "lints": 0,
        "tapes": 0,
        "failure": None,
        "launch_checks": record.get("launch_checks") if isinstance(record.get("launch_checks"), dict) else None,
        "restored": {"time": record.get("time"), "readable_time": readable_time(record.get("time")),
                     "path": kept_path},
    }


def listing(script: str) -> Dict[str, Any]:
    """The kept runs of ``script``, newest first, for a picker; files that are not runs in ``problems``."""
    problems: List[Tuple[str, str]] = []
    runs = evidence.history(script, problems=problems)
    current = evidence.script_hash(script)
    out = []
    for path, record in reversed(runs):
        counts = record.get("counts") or {}
        out.append({
            "path": path,
            "time": record.get("time"),
            "readable_time": readable_time(record.get("time")),
            "status": record.get("status"),
            "counts": {k: counts.get(k, 0) if isinstance(counts.get(k), int) else 0 for k in SEVERITIES},
            "has_findings": has_findings(record),
            "warp_version": record.get("warp_version"),
            "device": record.get("device"),
            "current": record.get("script_hash") == current and current is not None,
        })
    return {"runs": out, "problems": [{"path": p, "why": why} for p, why in problems]}
