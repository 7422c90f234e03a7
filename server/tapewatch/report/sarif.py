"""SARIF 2.1.0 for code scanning in CI: one run, one rule per code used."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Optional

from .. import __version__, codes
from ..model import Location
from ..runner import RunResult

_LEVEL = {"error": "error", "warning": "warning", "information": "note", "hint": "note"}


def _artifact(loc: Location, base: Optional[str]) -> dict:
    path = loc.path
    if base:
        rel = os.path.relpath(path, base)
        if not rel.startswith(".."):
            return {"uri": Path(rel).as_posix(), "uriBaseId": "SRCROOT"}
    return {"uri": Path(path).as_uri()}


def _physical(loc: Location, base: Optional[str]) -> dict:
    region = {"startLine": loc.line, "startColumn": loc.column}
    if loc.end_line:
        region["endLine"] = loc.end_line
    if loc.end_column:
        region["endColumn"] = loc.end_column
    return {"physicalLocation": {"artifactLocation": _artifact(loc, base), "region": region}}


def _doc_page(code: str) -> Optional[str]:
    base = codes.docs_dir()
    if base is None:
        return None
    try:
        with open(os.path.join(base, code + ".md"), encoding="utf-8") as f:
            return f.read()
    except OSError:
        return None


def to_sarif(result: RunResult, base: Optional[str] = None) -> str:
    used = sorted({f.code for f in result.findings})
    rules = []
    for code in used:
        c = codes.get(code)
        rule = {
            "id": code,
            "name": c.name,
            "shortDescription": {"text": c.title},
            "defaultConfiguration": {"level": _LEVEL[c.severity]},
        }
        page = _doc_page(code)
        if page:
            # The page itself: code scanning shows it beside the alert (a
            # file:// link would point into the machine that ran the check).
            rule["help"] = {"text": c.title, "markdown": page}
        rules.append(rule)
    results = []
    for f in result.findings:
        entry = {
            "ruleId": f.code,
            "ruleIndex": used.index(f.code),
            "level": _LEVEL.get(f.severity, "warning"),
            "message": {"text": f.message},
            "occurrenceCount": f.count,
        }
        if f.location is not None:
            entry["locations"] = [_physical(f.location, base)]
        if f.related:
            entry["relatedLocations"] = [
                dict(_physical(r.location, base), id=i, message={"text": r.message})
                for i, r in enumerate(f.related)
            ]
        results.append(entry)
    run = {
        "tool": {"driver": {"name": "tapewatch", "version": __version__, "rules": rules}},
        "results": results,
        "properties": {"warpVersion": result.warp_version, "device": result.device,
                       "seconds": round(result.seconds, 3), "incomplete": result.incomplete,
                       "launchChecks": result.launch_checks},
    }
    if base:
        run["originalUriBaseIds"] = {"SRCROOT": {"uri": Path(base).as_uri() + "/"}}
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    }
    return json.dumps(doc, indent=2)
