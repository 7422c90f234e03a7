"""``tapewatch lint PATH...``: the static lints over files and folders, without running anything.

Ruff-style: folders are walked for ``*.py`` (hidden folders, virtual
environments and ``site-packages`` skipped), ``--select`` / ``--ignore``
take codes or prefixes (``TW30``), ``# noqa`` is honoured, and the
configuration can live in ``[tool.tapewatch]`` of the nearest
``pyproject.toml`` (``select``, ``ignore``, ``exclude``).  Exit status: 0
clean, 1 findings, 2 bad usage (a path that does not exist, an unknown
code).
"""

from __future__ import annotations

import fnmatch
import os
import sys
from typing import TYPE_CHECKING, Dict, Iterable, List, Sequence, Tuple

if TYPE_CHECKING:  # the model loads with the lint engine: ``tapewatch check`` builds this parser too
    from .model import Finding

SKIP_DIRS = {".git", ".hg", ".svn", "__pycache__", "node_modules", ".venv", "venv", ".tox", ".nox",
             "site-packages", "dist-packages", "build", "dist", ".mypy_cache", ".pytest_cache", ".ruff_cache"}


class UsageError(Exception):
    pass


def config_for(start: str) -> Dict[str, object]:
    """``[tool.tapewatch]`` of the nearest ``pyproject.toml`` above ``start`` ({} without one)."""
    folder = os.path.abspath(start if os.path.isdir(start) else os.path.dirname(start) or ".")
    while True:
        candidate = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(candidate):
            return _read_tool_section(candidate)
        parent = os.path.dirname(folder)
        if parent == folder:
            return {}
        folder = parent


def _read_tool_section(path: str) -> Dict[str, object]:
    try:
        import tomllib  # noqa: PLC0415 (3.11+)
    except ImportError:  # pragma: no cover - Python < 3.11
        try:
            import tomli as tomllib  # type: ignore[no-redef]  # noqa: PLC0415
        except ImportError:
            return {}
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (OSError, ValueError) as exc:
        raise UsageError("cannot read %s: %s" % (path, exc))
    section = data.get("tool", {}).get("tapewatch", {})
    return section if isinstance(section, dict) else {}


def files_under(paths: Sequence[str], exclude: Sequence[str] = ()) -> List[str]:
    out: List[str] = []
    for p in paths:
        if not os.path.exists(p):
            raise UsageError("no such file or folder: %s" % p)
        if os.path.isfile(p):
            out.append(p)
            continue
        for root, dirs, names in os.walk(p):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith(".")
                             and not _excluded(os.path.join(root, d), exclude))
            for name in sorted(names):
                path = os.path.join(root, name)
                if name.endswith(".py") and not _excluded(path, exclude):
                    out.append(path)
    return out


def _excluded(path: str, patterns: Sequence[str]) -> bool:
    norm = path.replace(os.sep, "/")
    return any(fnmatch.fnmatch(norm, pat) or fnmatch.fnmatch(os.path.basename(norm), pat)
               or fnmatch.fnmatch(norm, "*/" + pat.strip("/") + "/*") for pat in patterns)


def _codes(values: Iterable[str]) -> List[str]:
    from . import codes  # noqa: PLC0415

    out = []
    for v in values:
        for part in str(v).split(","):
            part = part.strip().upper()
            if not part:
                continue
            if not any(c.startswith(part) for c in codes.CODES if c.startswith("TW3")):
                raise UsageError("unknown lint code or prefix: %s (the lints are TW301..TW3xx)" % part)
            out.append(part)
    return out


def selected(code: str, select: Sequence[str], ignore: Sequence[str]) -> bool:
    if select and not any(code.startswith(s) for s in select):
        return False
    return not any(code.startswith(i) for i in ignore)


def lint_paths(paths: Sequence[str], select=(), ignore=(), exclude=()) -> Tuple[List[str], List[Finding]]:
    from .lint import lint_source  # noqa: PLC0415

    files = files_under(paths, exclude)
    found: List[Finding] = []
    for path in files:
        try:
            with open(path, "rb") as f:
                source = f.read()
        except OSError as exc:
            raise UsageError("cannot read %s: %s" % (path, exc))
        for finding in lint_source(source, os.path.abspath(path)):
            if selected(finding.code, select, ignore):
                found.append(finding)
    return files, found


def main(ns) -> int:
    from .json_layout import dumps  # noqa: PLC0415
    from .report.sarif import findings_to_sarif  # noqa: PLC0415
    from .report.text import finding_lines  # noqa: PLC0415

    try:
        config = config_for(ns.paths[0] if ns.paths else ".")
        select = _codes(ns.select or config.get("select") or [])
        ignore = _codes(ns.ignore or config.get("ignore") or [])
        exclude = list(ns.exclude or config.get("exclude") or [])
        files, found = lint_paths(ns.paths or ["."], select, ignore, exclude)
    except UsageError as exc:
        print("tapewatch lint: %s" % exc, file=sys.stderr)
        return 2
    base = os.getcwd()
    if ns.format == "json":
        out = dumps({"files": len(files), "findings": [f.to_json() for f in found]})
    elif ns.format == "sarif":
        out = findings_to_sarif(found, base=base)
    else:
        lines: List[str] = []
        for f in found:
            lines += finding_lines(f, base)
        lines.append("tapewatch lint: %d file%s, %s" % (len(files), "" if len(files) == 1 else "s",
                                                      "%d finding%s" % (len(found), "" if len(found) == 1 else "s")
                                                      if found else "no findings"))
        out = "\n".join(lines)
    sys.stdout.write(out if out.endswith("\n") else out + "\n")
    return 1 if found else 0


def add_parser(sub) -> None:
    lint = sub.add_parser("lint", help="run the static lints (TW3xx) on files and folders, without running them")
    lint.add_argument("paths", nargs="*", help="files and folders (default: .)")
    lint.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    lint.add_argument("--select", action="append", help="only these codes or prefixes (e.g. TW301,TW30)")
    lint.add_argument("--ignore", action="append", help="never these codes or prefixes")
    lint.add_argument("--exclude", action="append", help="glob of paths to skip (also [tool.tapewatch] exclude)")


