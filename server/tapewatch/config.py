"""``[tool.tapewatch]`` in ``pyproject.toml``: the one configuration loader, with ruff's semantics.

``tapewatch check``, ``tapewatch lint``, the pytest plugin and the language
server all read their configuration here, so a code ignored for one is
ignored for all.  The file is the nearest ``pyproject.toml`` above the
starting path that has a ``[tool.tapewatch]`` table (one without the table is
passed over, as ruff passes over a ``pyproject.toml`` without ``[tool.ruff]``).
Keys:

- ``select``, ``ignore``, ``extend-select``, ``extend-ignore``: codes or
  prefixes (``TW3``, ``TW301``, ``ALL``).  Without ``select`` every code is
  on.  Within one level the most specific prefix wins (``ignore = ["TW3"]``
  with ``extend-select = ["TW301"]`` keeps TW301), an ``ignore`` winning a
  tie; the command line is a level above the file, and its ``--select``
  starts the selection afresh, as ruff's does.  TW9xx (Tapewatch could not
  verify) are never hidden.
- ``exclude`` (replaces the default list: hidden folders, virtual
  environments, ``site-packages``, ``build``, ``dist``...) and
  ``extend-exclude`` (adds to it): glob patterns.  A pattern matches a
  file's or folder's name (``quiet.py``, ``legacy``), or its path from the
  folder that holds the ``pyproject.toml`` (``legacy/*``, ``src/gen_*.py``;
  ``*`` also matches ``/``).  Patterns given on the command line are taken
  from the working directory.
- ``force-exclude``: excludes apply to files named on the command line too
  (pre-commit names every staged file); without it a file named is always
  read.

A string is accepted where a list is expected (``ignore = "TW308"``, or
``"TW301,TW308"``).  An unknown key, a value of the wrong type or an
unknown code is a ``ConfigError`` naming the file and the key (with "did
you mean" for a misspelt key): status 2 for the commands, a usage error
for pytest, a message in the editor.

Stdlib only (``tomllib``, or ``tomli`` before Python 3.11).
"""

from __future__ import annotations

import difflib
import fnmatch
import os
from dataclasses import dataclass, field, replace
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

SECTION = "tool.tapewatch"
LIST_KEYS = ("select", "ignore", "extend-select", "extend-ignore", "exclude", "extend-exclude")
BOOL_KEYS = ("force-exclude",)
KEYS = LIST_KEYS + BOOL_KEYS

# Never walked into unless ``exclude`` replaces this list (ruff's defaults, and hidden folders).
DEFAULT_EXCLUDE: Tuple[str, ...] = (
    ".*", "__pycache__", "node_modules", "venv", "site-packages", "dist-packages", "build", "dist",
    "__pypackages__", "_build", "buck-out",
)


class ConfigError(Exception):
    """A configuration that cannot be used: the message names the file (or option) and the key."""


@dataclass(frozen=True)
class _Level:
    """One level of rule selection: the file's, then the command line's."""

    select: Optional[Tuple[str, ...]] = None
    extend_select: Tuple[str, ...] = ()
    ignore: Tuple[str, ...] = ()  # ``ignore`` and ``extend-ignore`` together

    def decide(self, code: str, previous: bool) -> bool:
        chosen = self.select + self.extend_select if self.select is not None else self.extend_select
        default = False if self.select is not None else previous
        best_on = max((len(p) for p in chosen if code.startswith(p)), default=-1)
        best_off = max((len(p) for p in self.ignore if code.startswith(p)), default=-1)
        if best_on < 0 and best_off < 0:
            return default
        return best_on > best_off


@dataclass(frozen=True)
class Config:
    """What the configuration says; ``Config()`` is the defaults (no file)."""

    path: Optional[str] = None  # the pyproject.toml read, if any
    root: str = field(default_factory=os.getcwd)  # where the file's patterns start
    levels: Tuple[_Level, ...] = ()
    exclude: Tuple[Tuple[str, str], ...] = tuple((p, "") for p in DEFAULT_EXCLUDE)  # (pattern, anchor)
    force_exclude: bool = False

    # ------------------------------------------------------------------ codes
    def enabled(self, code: str) -> bool:
        """Whether findings of ``code`` are reported (TW9xx always are)."""
        if code.startswith("TW9"):
            return True
        on = True
        for level in self.levels:
            on = level.decide(code, on)
        return on

    def keep(self, finding, named: Iterable[str] = ()) -> bool:
        """A finding is reported when its code is selected and it is not a lint of an excluded file
        (a run's own findings are where the program is wrong, whatever the file).  ``named``: the
        files the user named (their lints are excluded only with ``force-exclude``)."""
        if not self.enabled(finding.code):
            return False
        loc = finding.location
        if loc is None or (finding.data or {}).get("source") != "lint" or not finding.code.startswith("TW3"):
            return True
        full = os.path.abspath(loc.path)
        return not self.excluded(full, named=full in {os.path.abspath(p) for p in named})

    def apply(self, findings: Iterable, named: Iterable[str] = ()) -> list:
        """The findings ``keep`` keeps (a run's, a lint's, a test's)."""
        named = [os.path.abspath(p) for p in named]
        return [f for f in findings if self.keep(f, named)]

    # ---------------------------------------------------------------- paths
    def excluded(self, path: str, named: bool = False) -> bool:
        """Whether ``path`` is excluded.  ``named``: the user named it (on the command line, or
        pre-commit did): excluded only with ``force-exclude``, and then a folder of it that is
        excluded (below the configuration's folder) excludes it too."""
        if named and not self.force_exclude:
            return False
        full = os.path.abspath(path)
        if not named:
            return self._matches(full)
        return self.skipped_by_a_walk(full)

    def skipped_by_a_walk(self, path: str) -> bool:
        """Whether ``tapewatch lint`` of the project would pass ``path`` by: the file or one of its
        folders below the configuration's folder is excluded (the editor's question for an open file)."""
        full = os.path.abspath(path)
        if self._matches(full):
            return True
        root = os.path.abspath(self.root)
        folder = os.path.dirname(full)
        while folder.startswith(root + os.sep):
            if self._matches(folder):
                return True
            folder = os.path.dirname(folder)
        return False

    def _matches(self, full: str) -> bool:
        name = os.path.basename(full)
        for pattern, anchor in self.exclude:
            if fnmatch.fnmatchcase(name, pattern):
                return True
            if "/" in pattern or os.sep in pattern:
                anchored = pattern if os.path.isabs(pattern) else os.path.join(anchor or self.root, pattern)
                if fnmatch.fnmatchcase(full, os.path.normpath(anchored)):
                    return True
        return False

    # ---------------------------------------------------------- the command line
    def with_options(self, select=None, ignore=None, extend_select=None, extend_ignore=None, exclude=None,
                     extend_exclude=None, force_exclude: Optional[bool] = None, cwd: Optional[str] = None) -> "Config":
        """This configuration under command-line options (each a list of strings as argparse gives
        them with ``action="append"``, or None when not given); patterns are taken from ``cwd``."""
        cwd = os.path.abspath(cwd or os.getcwd())
        out = self
        rules = {k: v for k, v in (("--select", select), ("--ignore", ignore), ("--extend-select", extend_select),
                                   ("--extend-ignore", extend_ignore)) if v is not None}
        if rules:
            level = _Level(
                select=tuple(codes_of(select, "--select")) if select is not None else None,
                extend_select=tuple(codes_of(extend_select or [], "--extend-select")),
                ignore=tuple(codes_of((ignore or []) + (extend_ignore or []), "--ignore", ignoring=True)))
            out = replace(out, levels=out.levels + (level,))
        if exclude is not None:
            out = replace(out, exclude=tuple((p, cwd) for p in _patterns(exclude, "--exclude")))
        if extend_exclude is not None:
            out = replace(out, exclude=out.exclude + tuple((p, cwd) for p in _patterns(extend_exclude,
                                                                                      "--extend-exclude")))
        if force_exclude is not None:
            out = replace(out, force_exclude=bool(force_exclude))
        return out


def codes_of(values: Iterable, where: str, ignoring: bool = False) -> List[str]:
    """Codes or prefixes from strings (``"TW301,TW30"``); ``ALL`` is every code.  Unknown ones raise."""
    from . import codes  # noqa: PLC0415 (stdlib only, like this module)

    out = []
    for value in values:
        if not isinstance(value, str):
            raise ConfigError("%s: expected codes as strings, got %s" % (where, _shown(value)))
        for part in value.split(","):
            part = part.strip().upper()
            if not part:
                continue
            if part == "ALL":
                part = "TW"
            matching = [c for c in codes.CODES if c.startswith(part)]
            if not matching:
                near = difflib.get_close_matches(part, list(codes.CODES), n=1)
                raise ConfigError("%s: unknown code or prefix %s%s (the codes are listed in docs/diagnostics)"
                                  % (where, part, " (did you mean %s?)" % near[0] if near else ""))
            if ignoring and all(c.startswith("TW9") for c in matching):
                raise ConfigError("%s: %s cannot be ignored: a TW9xx says Tapewatch could not verify" % (where, part))
            out.append(part)
    return out


def _patterns(values: Iterable, where: str) -> List[str]:
    out = []
    for value in values:
        if not isinstance(value, str) or not value.strip():
            raise ConfigError("%s: expected glob patterns as strings, got %s" % (where, _shown(value)))
        out.append(value.strip().rstrip("/") or "/")
    return out


def _shown(value) -> str:
    import json  # noqa: PLC0415

    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _as_list(value, key: str, where: str) -> List:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return value
    raise ConfigError("%s: `%s` must be a list of strings (or one string), got %s" % (where, key, _shown(value)))


def from_table(table: Dict, path: Optional[str] = None, root: Optional[str] = None) -> Config:
    """A ``Config`` from the ``[tool.tapewatch]`` table of ``path`` (validated)."""
    where = "%s: [%s]" % (path or "pyproject.toml", SECTION)
    if not isinstance(table, dict):
        raise ConfigError("%s must be a table" % where)
    for key in table:
        if key not in KEYS:
            near = difflib.get_close_matches(str(key).replace("_", "-"), KEYS, n=1, cutoff=0.6)
            raise ConfigError("%s: unknown key `%s`%s; the keys are %s" % (
                where, key, " (did you mean `%s`?)" % near[0] if near else "", ", ".join(KEYS)))
    lists = {k: _as_list(table[k], k, where) for k in LIST_KEYS if k in table}
    force = table.get("force-exclude", False)
    if not isinstance(force, bool):
        raise ConfigError("%s: `force-exclude` must be true or false, got %s" % (where, _shown(force)))
    root = os.path.abspath(root or (os.path.dirname(path) if path else os.getcwd()))
    level = _Level(
        select=tuple(codes_of(lists["select"], "%s: `select`" % where)) if "select" in lists else None,
        extend_select=tuple(codes_of(lists.get("extend-select", []), "%s: `extend-select`" % where)),
        ignore=tuple(codes_of(lists.get("ignore", []), "%s: `ignore`" % where, ignoring=True)
                     + codes_of(lists.get("extend-ignore", []), "%s: `extend-ignore`" % where, ignoring=True)))
    exclude = _patterns(lists["exclude"], "%s: `exclude`" % where) if "exclude" in lists else list(DEFAULT_EXCLUDE)
    exclude += _patterns(lists.get("extend-exclude", []), "%s: `extend-exclude`" % where)
    return Config(path=path, root=root, levels=(level,), exclude=tuple((p, root) for p in exclude),
                  force_exclude=force)


def find_file(start: str) -> Optional[str]:
    """The nearest ``pyproject.toml`` above ``start`` (a file or folder) with a ``[tool.tapewatch]`` table."""
    folder = os.path.abspath(start)
    if not os.path.isdir(folder):
        folder = os.path.dirname(folder)
    while True:
        candidate = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(candidate) and _has_section(candidate):
            return candidate
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _has_section(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            data = f.read(1 << 22)
    except OSError:
        return False
    return b"tapewatch" in data  # read_table says whether it is the table


def _toml():
    try:
        import tomllib  # noqa: PLC0415 (3.11+)
    except ImportError:  # pragma: no cover - Python < 3.11
        try:
            import tomli as tomllib  # type: ignore[no-redef]  # noqa: PLC0415
        except ImportError:
            return None
    return tomllib


def read_table(path: str) -> Optional[Dict]:
    """The ``[tool.tapewatch]`` table of ``path``, or None when it has none."""
    toml = _toml()
    if toml is None:
        raise ConfigError("%s: reading [%s] needs the `tomli` package on Python < 3.11" % (path, SECTION))
    try:
        with open(path, "rb") as f:
            data = toml.load(f)
    except OSError as exc:
        raise ConfigError("%s cannot be read (%s)" % (path, exc.strerror or exc))
    except ValueError as exc:  # tomllib.TOMLDecodeError
        raise ConfigError("%s is not valid TOML (%s)" % (path, exc))
    tool = data.get("tool")
    if not isinstance(tool, dict) or "tapewatch" not in tool:
        return None
    return tool["tapewatch"]


def load(start: str = ".") -> Config:
    """The configuration that applies to ``start`` (a file or folder): its nearest ``pyproject.toml``
    with ``[tool.tapewatch]``, else the defaults.  Raises ``ConfigError``."""
    path = find_file(start)
    while path is not None:
        table = read_table(path)
        if table is not None:
            return from_table(table, path)
        parent = os.path.dirname(os.path.dirname(path))
        if parent == os.path.dirname(path):
            break
        path = find_file(parent)
    return Config()


def for_editor(path: str) -> Tuple[Config, Optional[str]]:
    """For the language server: the configuration for the document at ``path``, and the message to
    show when the file is invalid (then the defaults apply).  Never raises."""
    try:
        return load(path), None
    except ConfigError as exc:
        return Config(), "tapewatch: %s; using the defaults" % exc


def files_excluded(paths: Sequence[str], config: Config) -> List[str]:
    """Of ``paths`` named by the user, those the configuration excludes (``force-exclude`` only)."""
    return [p for p in paths if config.excluded(p, named=True)]
