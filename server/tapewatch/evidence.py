"""Evidence kept from every verification run: ``.tapewatch/runs/`` in the project.

Each run is one bounded JSON file (the findings, the FD numbers, the Warp
version, the device, a hash of the script, the time), so that "before" and
"after" a fix can be compared later: ``tapewatch history SCRIPT`` lists
them, ``tapewatch check --baseline RUN.json`` reports which findings are new,
fixed or unchanged, and how the FD errors moved.  At most ``KEEP`` runs per
script are kept; the oldest go first.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
from typing import Dict, List, Optional, Tuple

from .model import Finding
from .json_layout import dumps

FOLDER = os.path.join(".tapewatch", "runs")
KEEP = 50  # runs kept per script
MAX_FINDINGS = 500  # findings kept per run
MAX_MESSAGE = 2000


def project_root(script: str) -> str:
    """The nearest folder above the script with ``.git``, ``pyproject.toml`` or ``.tapewatch``; else its own."""
    folder = os.path.dirname(os.path.abspath(script))
    start = folder
    while True:
        if any(os.path.exists(os.path.join(folder, marker)) for marker in (".git", "pyproject.toml", ".tapewatch")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return start
        folder = parent


def script_hash(script: str) -> Optional[str]:
    try:
        with open(script, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()[:16]
    except OSError:
        return None


def record(result, root: Optional[str] = None) -> dict:
    """The evidence of one run (``runner.RunResult``), as a JSON-ready dict."""
    base = root or project_root(result.script)
    findings = []
    relative: Dict[str, str] = {}  # hundreds of findings name a handful of files

    def rel(path: str) -> str:
        out = relative.get(path)
        if out is None:
            out = relative[path] = _rel(path, base)
        return out

    for f in result.findings[:MAX_FINDINGS]:
        obj = f.to_json()
        obj["message"] = obj["message"][:MAX_MESSAGE]
        obj.get("data", {}).pop("traceback", None)
        if obj.get("path"):
            obj["path"] = rel(obj["path"])
        for r in obj.get("related", []):
            r["path"] = rel(r["path"])
        findings.append(obj)
    return {
        "script": _rel(result.script, base),
        "script_hash": script_hash(result.script),
        # To the microsecond: a warm re-run takes under a second, and the kept runs of a script are
        # ordered by this time (history, compare with previous, pruning by file name).
        "time": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="microseconds"),
        "warp_version": result.warp_version,
        "device": result.device,
        "status": result.status,
        "seconds": round(result.seconds, 3),
        "counts": result.counts(),
        "launch_checks": result.launch_checks,
        "findings": findings,
        "truncated": max(0, len(result.findings) - MAX_FINDINGS),
    }


def save(result, root: Optional[str] = None) -> Optional[str]:
    """Write the run's evidence; returns its path (None when the folder cannot be written)."""
    base = root or project_root(result.script)
    folder = os.path.join(base, FOLDER)
    data = record(result, base)
    stem = os.path.splitext(os.path.basename(result.script))[0]
    stamp = data["time"].replace(":", "").replace("-", "").replace("+0000", "Z")
    path = os.path.join(folder, "%s-%s-%s.json" % (stem, stamp, (data["script_hash"] or "nohash")[:8]))
    try:
        os.makedirs(folder, exist_ok=True)
        n = 1
        while os.path.exists(path):
            n += 1
            path = path[:-5].rsplit("~", 1)[0] + "~%d.json" % n
        with open(path, "w", encoding="utf-8") as f:
            f.write(dumps(data))
        _prune(folder, stem)
    except OSError:
        return None
    return path


def history(script: str, root: Optional[str] = None) -> List[Tuple[str, dict]]:
    """``(path, evidence)`` of the script's kept runs, oldest first."""
    base = root or project_root(script)
    folder = os.path.join(base, FOLDER)
    rel = _rel(os.path.abspath(script), base)
    out = []
    for path in _runs(folder, os.path.splitext(os.path.basename(script))[0]):
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError):
            continue
        if data.get("script") == rel:
            out.append((path, data))
    out.sort(key=lambda item: item[1].get("time", ""))
    return out


def load(path: str) -> dict:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict) or not isinstance(data.get("findings"), list):
        raise ValueError("%s is not a Tapewatch run (no findings list)" % path)
    return data


def compare(before: dict, after_findings: List[Finding], root: str) -> Dict[str, list]:
    """Findings ``new`` in this run, ``fixed`` since the baseline, ``unchanged``; FD errors that moved."""
    old = {_key(obj): obj for obj in before.get("findings", []) if not str(obj.get("code", "")).startswith("TW9")}
    now = {}
    for f in after_findings:
        if f.code.startswith("TW9"):
            continue
        obj = f.to_json()
        if obj.get("path"):
            obj["path"] = _rel(obj["path"], root)
        now[_key(obj)] = obj
    fd = []
    for key in old.keys() & now.keys():
        a, b = old[key].get("data", {}), now[key].get("data", {})
        if "max_abs_error" in a and "max_abs_error" in b:
            fd.append({"key": key, "before": a["max_abs_error"], "after": b["max_abs_error"]})
    return {
        "new": [now[k] for k in now.keys() - old.keys()],
        "fixed": [old[k] for k in old.keys() - now.keys()],
        "unchanged": [now[k] for k in now.keys() & old.keys()],
        "fd": fd,
    }


def _key(obj: dict) -> tuple:
    """What identifies a finding across edits: the code, the file, and what it is about (not the line)."""
    data = obj.get("data") or {}
    about = data.get("array") or data.get("parameter") or data.get("kernel") or data.get("function") or \
        obj.get("line")
    return (obj.get("code"), os.path.basename(str(obj.get("path") or "")), str(about))


def _rel(path: str, base: str) -> str:
    try:
        rel = os.path.relpath(path, base)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def _runs(folder: str, stem: str) -> List[str]:
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return sorted(os.path.join(folder, n) for n in names if n.startswith(stem + "-") and n.endswith(".json"))


def _prune(folder: str, stem: str) -> None:
    runs = _runs(folder, stem)
    for path in runs[:-KEEP]:
        try:
            os.remove(path)
        except OSError:
            pass
