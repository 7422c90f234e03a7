"""SARIF 2.1.0 for code scanning in CI: one run, one rule per code used.

URIs are percent-encoded; columns are converted from Tapewatch's UTF-8 byte
offsets to Unicode code points (``columnKind: unicodeCodePoints``).  An
unknown code or a relative path never breaks the report.  Message texts are
plain text with their literal ``[`` / ``]`` escaped (SARIF 2.1.0 §3.11.6: a
viewer would take ``[text](target)`` from a file name or an exception for an
embedded link).
"""

from __future__ import annotations

import functools
import os
import urllib.parse
from pathlib import Path
from typing import List, Optional

from .. import __version__, codes
from ..model import Finding, Location
from ..runner import RunResult
from ..json_layout import dumps
from .escape import sarif_text

_LEVEL = {"error": "error", "warning": "warning", "information": "note", "hint": "note"}


def _artifact(loc: Location, base: Optional[str]) -> dict:
    path = os.path.abspath(loc.path)
    if base:
        rel = os.path.relpath(path, base)
        if not rel.startswith(".."):
            return {"uri": urllib.parse.quote(Path(rel).as_posix()), "uriBaseId": "SRCROOT"}
    return {"uri": Path(path).as_uri()}


@functools.lru_cache(maxsize=64)
def _lines(path: str) -> List[bytes]:
    """The file's lines, for converting columns; none for anything but a regular file (a FIFO named in
    a finding would block the report)."""
    from ..spawn import read_head  # noqa: PLC0415

    return read_head(path, 1 << 26).splitlines()


def _code_points(path: str, line: int, byte_column: int) -> int:
    """A 1-based UTF-8 byte column as a 1-based code-point column (unchanged if the line is unknown)."""
    lines = _lines(os.path.abspath(path))
    if not 1 <= line <= len(lines) or byte_column <= 1:
        return max(1, byte_column)
    return len(lines[line - 1][: byte_column - 1].decode("utf-8", "ignore")) + 1


def _physical(loc: Location, base: Optional[str]) -> dict:
    region = {"startLine": max(1, loc.line), "startColumn": _code_points(loc.path, loc.line, loc.column)}
    if loc.end_line and loc.end_line >= max(1, loc.line):
        region["endLine"] = loc.end_line
    if loc.end_column:
        region["endColumn"] = _code_points(loc.path, loc.end_line or loc.line, loc.end_column)
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


def to_sarif(result: RunResult, base: Optional[str] = None, baseline: Optional[dict] = None) -> str:
    return findings_to_sarif(result.findings, base, {
        "warpVersion": result.warp_version, "device": result.device, "seconds": round(result.seconds, 3),
        "incomplete": result.incomplete, "launchChecks": result.launch_checks,
        "notMeasured": result.not_measured}, baseline=baseline)


def findings_to_sarif(findings: List[Finding], base: Optional[str] = None, properties: Optional[dict] = None,
                      baseline: Optional[dict] = None) -> str:
    """One SARIF run of ``findings`` (a verification run, or ``tapewatch lint``).

    ``baseline`` (``--baseline``): ``{"states": [...], "absent": [Finding...]}``: each finding's
    ``baselineState`` (``new``, ``unchanged``) and the baseline's findings now gone (``absent``)."""
    absent = list((baseline or {}).get("absent") or [])
    used = sorted({f.code for f in list(findings) + absent})
    rules = []
    for code in used:
        c = codes.CODES.get(code) or codes.Code(code, "unknown", "warning", "A finding Tapewatch does not know")
        rule = {
            "id": code,
            "name": c.name,
            "shortDescription": {"text": c.title},
            "defaultConfiguration": {"level": _LEVEL[c.severity]},
            "helpUri": codes.doc_url(code),
        }
        page = _doc_page(code)
        if page:
            # The page itself: code scanning shows it beside the alert (a
            # file:// link would point into the machine that ran the check).
            rule["help"] = {"text": c.title, "markdown": page}
        rules.append(rule)
    results = []
    states = list((baseline or {}).get("states") or [])
    for n, f in enumerate(list(findings) + absent):
        entry = {
            "ruleId": f.code,
            "ruleIndex": used.index(f.code),
            "level": _LEVEL.get(f.severity, "warning"),
            "message": {"text": sarif_text(f.message)},
            "occurrenceCount": f.count,
        }
        if f.location is not None:
            entry["locations"] = [_physical(f.location, base)]
        if f.related:
            entry["relatedLocations"] = [
                dict(_physical(r.location, base), id=i, message={"text": sarif_text(r.message)})
                for i, r in enumerate(f.related)
            ]
        if baseline is not None:
            entry["baselineState"] = states[n] if n < len(states) else "absent"
        results.append(entry)
    run = {
        "tool": {"driver": {"name": "tapewatch", "version": __version__, "informationUri": codes.HOMEPAGE,
                            "rules": rules}},
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    if properties:
        run["properties"] = properties
    if base:
        run["originalUriBaseIds"] = {"SRCROOT": {"uri": Path(base).as_uri() + "/"}}
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    }
    return dumps(doc, depth=4)  # a result per line
