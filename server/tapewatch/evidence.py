"""Evidence kept from every verification run: ``.tapewatch/runs/`` in the project.

Each run is one bounded JSON file (the findings, the FD numbers, the Warp
version, the device, a hash of the script, the time), so that "before" and
"after" a fix can be compared later: ``tapewatch history SCRIPT`` lists
them, ``tapewatch check --baseline RUN.json`` reports which findings are new,
fixed or unchanged, and how the FD errors moved.  At most ``KEEP`` runs per
script are kept; the oldest go first.

A run is written to a temporary file in the folder and renamed into place:
a full disk or a killed process never leaves an empty or torn run file.
Kept runs come from other people too (they are meant to be committed), so
every file read here is checked against the schema Tapewatch writes, with
limits on its size (``MAX_FILE_BYTES``) and nesting (``MAX_DEPTH``); one that
does not fit is an ``EvidenceError`` naming the file and what is wrong,
never a traceback further on.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import math
import os
import stat
import tempfile
from typing import Any, Dict, List, Optional, Tuple

from .model import Finding
from .json_layout import dumps

FOLDER = os.path.join(".tapewatch", "runs")
KEEP = 50  # runs kept per script
MAX_FINDINGS = 500  # findings kept per run
MAX_MESSAGE = 2000
MAX_FILE_BYTES = 16 * 1024 * 1024  # a kept run is a few MB at most (500 findings)
MAX_DEPTH = 32  # nesting of a kept run's JSON (a finding's data is a few levels deep)


class EvidenceError(ValueError):
    """A file that is not a kept run Tapewatch can use: the message names the file and what is wrong."""


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
    """Write the run's evidence; returns its path (None when it could not be kept: see ``keep``)."""
    return keep(result, root)[0]


def keep(result, root: Optional[str] = None) -> Tuple[Optional[str], Optional[str]]:
    """Write the run's evidence: ``(path, None)``, or ``(None, why it could not be kept)``.

    Written whole or not at all: to a temporary file in the folder, renamed into place."""
    base = root or project_root(result.script)
    folder = os.path.join(base, FOLDER)
    data = record(result, base)
    stem = os.path.splitext(os.path.basename(result.script))[0]
    stamp = data["time"].replace(":", "").replace("-", "").replace("+0000", "Z")
    path = os.path.join(folder, "%s-%s-%s.json" % (stem, stamp, (data["script_hash"] or "nohash")[:8]))
    text = dumps(data)
    tmp = None
    try:
        _make_folder(base)
        os.makedirs(folder, exist_ok=True)
        n = 1
        while os.path.exists(path):
            n += 1
            path = path[:-5].rsplit("~", 1)[0] + "~%d.json" % n
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".%s-" % stem, suffix=".tmp")  # never a run's name
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
        tmp = None
        _prune(folder, stem)
    except OSError as exc:
        return None, "%s%s" % (exc.strerror or exc, ": %s" % exc.filename if exc.filename else "")
    finally:
        if tmp is not None:
            try:
                os.remove(tmp)
            except OSError:
                pass
    return path, None


GITIGNORE = "# Created by Tapewatch: the runs it keeps are not part of the project (delete this file to commit them).\n*\n"


def _make_folder(base: str) -> None:
    """``.tapewatch/`` in the project, created with a ``.gitignore`` of ``*`` in it (as pytest, ruff and mypy
    do with their caches): kept runs never show up in ``git status``.  An existing folder is left as it is."""
    top = os.path.join(base, os.path.dirname(FOLDER))
    try:
        os.mkdir(top)
    except FileExistsError:
        return
    with open(os.path.join(top, ".gitignore"), "x", encoding="utf-8") as f:
        f.write(GITIGNORE)


def history(script: str, root: Optional[str] = None,
            problems: Optional[List[Tuple[str, str]]] = None) -> List[Tuple[str, dict]]:
    """``(path, evidence)`` of the script's kept runs, oldest first.

    A kept file that is not a valid run is left out, and added to ``problems`` with why."""
    base = root or project_root(script)
    folder = os.path.join(base, FOLDER)
    rel = _rel(os.path.abspath(script), base)
    out = []
    for path in _runs(folder, os.path.splitext(os.path.basename(script))[0]):
        try:
            data = load(path)
        except (OSError, EvidenceError) as exc:
            if problems is not None:
                problems.append((path, str(exc) if isinstance(exc, EvidenceError) else _os_reason(path, exc)))
            continue
        if data.get("script") == rel:
            out.append((path, data))
    out.sort(key=lambda item: item[1].get("time") or "")
    return out


def load(path: str) -> dict:
    """A kept run, checked: ``OSError`` when it cannot be opened, ``EvidenceError`` when it is not a run
    (too large, not a regular file, not UTF-8 JSON, nested too deeply, fields of the wrong types)."""
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise EvidenceError("%s is not a Tapewatch run: not a regular file" % path)
    if st.st_size > MAX_FILE_BYTES:
        raise EvidenceError("%s is not a Tapewatch run: %.1f MiB, and a kept run is at most %d MiB"
                            % (path, st.st_size / 2 ** 20, MAX_FILE_BYTES >> 20))
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise EvidenceError("%s is not a Tapewatch run: not a regular file" % path)
        raw = f.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise EvidenceError("%s is not a Tapewatch run: over %d MiB" % (path, MAX_FILE_BYTES >> 20))
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError as exc:
        raise EvidenceError("%s is not a Tapewatch run: not UTF-8 (byte %d)" % (path, exc.start))
    except RecursionError:
        raise EvidenceError("%s is not a Tapewatch run: nested deeper than %d levels" % (path, MAX_DEPTH))
    except ValueError as exc:
        raise EvidenceError("%s is not a Tapewatch run: not JSON (%s)" % (path, exc))
    problem = check(data)
    if problem:
        raise EvidenceError("%s is not a Tapewatch run: %s" % (path, problem))
    return data


def _no_constant(name: str):
    raise ValueError("%s is not a JSON number" % name)


def _os_reason(path: str, exc: OSError) -> str:
    return "%s cannot be read (%s)" % (path, exc.strerror or exc)


_NUMBER = (int, float)
_TOP = {  # field -> (types, required); None allowed where listed
    "findings": ((list,), True),
    "script": ((str,), False),
    "script_hash": ((str, type(None)), False),
    "time": ((str, type(None)), False),
    "warp_version": ((str, type(None)), False),
    "device": ((str, type(None)), False),
    "status": ((str, type(None)), False),
    "seconds": (_NUMBER + (type(None),), False),
    "counts": ((dict, type(None)), False),
    "launch_checks": ((dict, type(None)), False),
    "truncated": ((int, type(None)), False),
}
_FINDING = {
    "code": ((str,), True),
    "message": ((str,), True),
    "severity": ((str,), False),
    "id": ((str,), False),
    "path": ((str, type(None)), False),
    "line": ((int, type(None)), False),
    "column": ((int, type(None)), False),
    "end_line": ((int, type(None)), False),
    "end_column": ((int, type(None)), False),
    "related": ((list,), False),
    "count": ((int,), False),
    "data": ((dict, type(None)), False),
}
_RELATED = {
    "path": ((str,), True),
    "line": ((int,), True),
    "column": ((int, type(None)), False),
    "end_line": ((int, type(None)), False),
    "end_column": ((int, type(None)), False),
    "message": ((str,), False),
    "role": ((str,), False),
}
_KIND = {dict: "an object", list: "a list", str: "a string", int: "an integer", float: "a number",
         bool: "a boolean", type(None): "null"}


def check(data: Any) -> Optional[str]:
    """What is wrong with ``data`` as a kept run (None when it is one): the schema Tapewatch writes,
    unknown fields allowed (a newer Tapewatch may add some), nesting at most ``MAX_DEPTH``."""
    if not isinstance(data, dict):
        return "the top level is %s, not an object" % _kind(data)
    too_deep = _deeper_than(data, MAX_DEPTH)
    if too_deep:
        return "%s is nested deeper than %d levels" % (too_deep, MAX_DEPTH)
    problem = _fields(data, _TOP, "")
    if problem:
        return problem
    for key in ("counts",):
        for name, value in (data.get(key) or {}).items():
            if not _is(value, (int,)):
                return "%s.%s is %s, not an integer" % (key, name, _kind(value))
    for n, finding in enumerate(data["findings"]):
        where = "findings[%d]" % n
        if not isinstance(finding, dict):
            return "%s is %s, not an object" % (where, _kind(finding))
        problem = _fields(finding, _FINDING, where + ".")
        if problem:
            return problem
        for k, related in enumerate(finding.get("related") or ()):
            if not isinstance(related, dict):
                return "%s.related[%d] is %s, not an object" % (where, k, _kind(related))
            problem = _fields(related, _RELATED, "%s.related[%d]." % (where, k))
            if problem:
                return problem
        fd_error = (finding.get("data") or {}).get("max_abs_error")
        if fd_error is not None and not (_is(fd_error, _NUMBER) and _finite(fd_error)):
            return "%s.data.max_abs_error is %s, not a finite number" % (where, _kind(fd_error))
    return None


def _fields(obj: dict, schema: dict, prefix: str) -> Optional[str]:
    for name, (types, required) in schema.items():
        if name not in obj:
            if required:
                return "%s%s is missing" % (prefix, name)
            continue
        value = obj[name]
        if not _is(value, types):
            return "%s%s is %s, not %s" % (prefix, name, _kind(value),
                                           " or ".join(_KIND.get(t, t.__name__) for t in types))
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2 ** 53:
            return "%s%s is out of range" % (prefix, name)
    return None


def _is(value: Any, types: tuple) -> bool:
    if isinstance(value, bool):  # JSON true/false are not numbers here
        return bool in types
    return isinstance(value, types)


def _finite(value) -> bool:
    try:
        return math.isfinite(value)
    except OverflowError:  # an integer too large for a float
        return False


def _kind(value: Any) -> str:
    return _KIND.get(type(value), type(value).__name__)


def _deeper_than(data: Any, limit: int) -> Optional[str]:
    """The path of the first container nested deeper than ``limit`` (None if there is none); iterative."""
    stack = [(data, "the run", 1)]
    while stack:
        value, where, depth = stack.pop()
        if depth > limit:
            return where
        if isinstance(value, dict):
            stack.extend((v, "%s.%s" % (where, k), depth + 1) for k, v in value.items()
                         if isinstance(v, (dict, list)))
        elif isinstance(value, list):
            stack.extend((v, "%s[%d]" % (where, i), depth + 1) for i, v in enumerate(value)
                         if isinstance(v, (dict, list)))
    return None


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
        a, b = old[key].get("data") or {}, now[key].get("data") or {}
        before, after = a.get("max_abs_error"), b.get("max_abs_error")
        if _is(before, _NUMBER) and _is(after, _NUMBER):
            fd.append({"key": key, "before": before, "after": after})
    return {
        "new": [now[k] for k in now.keys() - old.keys()],
        "fixed": [old[k] for k in old.keys() - now.keys()],
        "unchanged": [now[k] for k in now.keys() & old.keys()],
        "fd": fd,
    }


def baseline_states(before: dict, after_findings: List[Finding], root: str) -> Tuple[List[str], List[dict]]:
    """SARIF's ``baselineState`` of each finding against a kept run (``new`` or ``unchanged``; a TW9xx
    too, by the same key), and the baseline's findings this run no longer has (``absent``)."""
    old = {_key(obj) for obj in before.get("findings", [])}
    now = set()
    states = []
    for f in after_findings:
        obj = f.to_json()
        if obj.get("path"):
            obj["path"] = _rel(obj["path"], root)
        key = _key(obj)
        now.add(key)
        states.append("unchanged" if key in old else "new")
    absent = [obj for obj in before.get("findings", []) if _key(obj) not in now
              and not str(obj.get("code", "")).startswith("TW9")]
    return states, absent


def comparison_markdown(name: str, before: dict, after: dict, diff: Dict[str, list]) -> str:
    """The comparison of two kept runs as Markdown, for an editor to render (``compareWithPrevious``).

    Every string taken from the runs or the script's name is a code span (``escape.markdown_code``):
    a finding's message quotes the user's names and exceptions, and a kept run may come from anyone,
    so nothing in them may become a link, a remote image or HTML."""
    from .report.escape import markdown_code as code  # noqa: PLC0415

    def first_line(text: Any) -> str:
        return (str(text).splitlines() or [""])[0][:200]

    def number(value: Any) -> str:
        return "%.3g" % value if _is(value, _NUMBER) else code(value, table=True)

    lines = ["# %s: this run against the previous one" % code(name), "",
             "Previous run: %s (Warp %s, %s) · this run: %s (Warp %s, %s)" % tuple(
                 code(run.get(k)) for run in (before, after) for k in ("time", "warp_version", "device")), "",
             "**%d new, %d fixed, %d unchanged**" % (len(diff["new"]), len(diff["fixed"]), len(diff["unchanged"])),
             ""]
    for title, items in (("New", diff["new"]), ("Fixed", diff["fixed"])):
        if items:
            lines += ["## %s" % title, ""]
            lines += ["- %s %s — %s" % (code(o.get("code")), code("%s:%s" % (o.get("path"), o.get("line"))),
                                        code(first_line(o.get("message", "")))) for o in items]
            lines.append("")
    if diff["fd"]:
        lines += ["## Finite-difference errors", "", "| finding | before | after |", "|---|---|---|"]
        lines += ["| %s | %s | %s |" % (code("%s %s" % (m["key"][0], m["key"][2]), table=True), number(m["before"]),
                                        number(m["after"])) for m in diff["fd"]]
        lines.append("")
    return "\n".join(lines)


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
