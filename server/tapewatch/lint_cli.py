"""``tapewatch lint PATH...``: the static lints over files and folders, without running anything.

Ruff-style: folders are walked for ``*.py`` (hidden folders, virtual
environments and ``site-packages`` skipped: ``config.DEFAULT_EXCLUDE``),
``--select`` / ``--ignore`` / ``--extend-select`` / ``--extend-ignore`` take
codes or prefixes (``TW30``), ``# noqa`` is honoured, and the configuration
lives in ``[tool.tapewatch]`` of the nearest ``pyproject.toml``, read by
``tapewatch.config`` (the same loader as ``check``, the pytest plugin and the
language server).

A file is never "clean" because it could not be read: one that does not
parse (a syntax error, a NUL byte, nesting too deep for Python's parser),
cannot be decoded (PEP 263 coding declarations are honoured, as
``tokenize.open`` does), cannot be read, or that was named on the command
line and is not a regular file, is a TW911 for that file, and the others
are still linted.  In a folder, a FIFO, a socket or a device named ``*.py``
is never opened (a FIFO would block for good) and a dangling symbolic link
has nothing to read: both are skipped with a note on stderr.

Exit status: 0 clean, 1 findings, 2 could not verify (a TW911, a lint that
failed: TW910) or bad usage (a path that does not exist, an unknown code);
``--exit-zero`` makes findings and unread files 0 (bad usage stays 2).
"""

from __future__ import annotations

import ast
import io
import logging
import os
import stat
import sys
import threading
import tokenize
from typing import TYPE_CHECKING, Dict, List, Optional, Sequence, Tuple

from .config import Config, ConfigError

if TYPE_CHECKING:  # the model loads with the lint engine: ``tapewatch check`` builds this parser too
    from .model import Finding

class UsageError(Exception):
    pass


def files_under(paths: Sequence[str], config: Optional[Config] = None,
                skipped: Optional[List[Tuple[str, str]]] = None) -> List[Tuple[str, bool]]:
    """``(path, named)`` of every file to lint: those named, and the ``*.py`` in the folders named,
    less what ``config`` excludes (a file or folder named only with ``force-exclude``).

    Only regular files are taken from folders: a FIFO, a socket or a device is never opened, and
    a symbolic link to nothing has nothing to read; each goes to ``skipped`` with why."""
    config = config if config is not None else Config()
    out: List[Tuple[str, bool]] = []
    for p in paths:
        if not os.path.exists(p):
            raise UsageError("no such file or folder: %s" % p)
        if config.excluded(p, named=True):
            continue
        if not os.path.isdir(p):
            out.append((p, True))  # a regular file, or not: read_source says (never blocking)
            continue
        for root, dirs, names in os.walk(p):
            dirs[:] = sorted(d for d in dirs if not config.excluded(os.path.join(root, d)))
            for name in sorted(names):
                path = os.path.join(root, name)
                if not name.endswith(".py") or config.excluded(path):
                    continue
                try:
                    mode = os.stat(path).st_mode
                except OSError:
                    if skipped is not None:
                        skipped.append((path, "a symbolic link to a missing file" if os.path.islink(path)
                                        else "it cannot be looked at"))
                    continue
                if stat.S_ISREG(mode):
                    out.append((path, False))
                elif skipped is not None and not stat.S_ISDIR(mode):
                    skipped.append((path, "not a regular file (%s)" % file_kind(mode)))
    return out


class Unreadable(Exception):
    """A file ``tapewatch lint`` could not read as Python: a TW911 for that file, at ``line``/``column``."""

    def __init__(self, reason: str, line: int = 1, column: int = 1, kind: str = "unreadable"):
        super().__init__(reason)
        self.reason, self.line, self.column, self.kind = reason, max(1, line), max(1, column), kind


class NotRegular(Exception):
    """A FIFO, a socket, a device: never opened for reading (a FIFO would block the run for good)."""

    def __init__(self, what: str):
        super().__init__(what)
        self.what = what


MAX_SOURCE_BYTES = 16 * 1024 * 1024  # a larger source is TW911: its AST alone would take gigabytes
CHUNKED_FROM = 256 * 1024  # sources from this size are parsed one top-level chunk at a time (memory)


def file_kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a folder")):
        if test(mode):
            return name
    return "not a plain file"


def read_source(path: str) -> str:
    """The file's text as Python reads it: its PEP 263 coding declaration (or BOM) honoured, else UTF-8.

    Raises ``FileNotFoundError`` (a dangling symbolic link), ``NotRegular`` (checked before opening,
    and again on the open file), or ``Unreadable``.  Reads at most ``MAX_SOURCE_BYTES``."""
    st = os.stat(path)  # FileNotFoundError: gone, or a dangling symbolic link
    if not stat.S_ISREG(st.st_mode):
        raise NotRegular(file_kind(st.st_mode))
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise Unreadable("it cannot be read (%s)" % (exc.strerror or exc), kind="os-error")
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # replaced since the first look
            raise NotRegular(file_kind(st.st_mode))
        parts, size = [], 0
        while True:
            block = os.read(fd, 1 << 20)
            if not block:
                break
            size += len(block)
            if size > MAX_SOURCE_BYTES:
                raise Unreadable("it is larger than the %d MiB a lint reads" % (MAX_SOURCE_BYTES >> 20), kind="too-large")
            parts.append(block)
    except OSError as exc:
        raise Unreadable("it cannot be read (%s)" % (exc.strerror or exc), kind="os-error")
    finally:
        os.close(fd)
    return decode_source(b"".join(parts))


def decode_source(data: bytes) -> str:
    """``data`` decoded as Python decodes a source file (``tokenize.open``'s rules), or ``Unreadable``."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as bad:
            raise _undecodable(data, bad, "UTF-8", " and it declares no other encoding (PEP 263)")
        head = data.split(b"\n", 2)
        line = 2 if len(head) > 1 and b"coding" not in head[0] and b"coding" in head[1] else 1
        raise Unreadable("its encoding cannot be used (%s)" % exc.msg, line, kind="encoding")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as bad:
        name = "UTF-8" if encoding in ("utf-8", "utf-8-sig") else encoding
        raise _undecodable(data, bad, name, "")


def _undecodable(data: bytes, exc: UnicodeDecodeError, encoding: str, why: str) -> Unreadable:
    start = data.rfind(b"\n", 0, exc.start) + 1
    line, column = data.count(b"\n", 0, exc.start) + 1, exc.start - start + 1
    return Unreadable("it is not valid %s: byte 0x%02x at line %d, column %d%s"
                      % (encoding, data[exc.start], line, column, why), line, column, kind="encoding")


def parse_module(source: str, path: str = "<unknown>", keep: bool = True) -> Optional[ast.Module]:
    """``ast.parse(source)``, in bounded memory; a source that cannot be parsed raises ``Unreadable``.

    A long source is parsed one top-level chunk at a time: the parser's arena for the whole file
    (a third of the peak for 5 MB of kernels) never exists at once, and equal line numbers share one
    int.  The tree is the one ``ast.parse`` gives.  ``keep=False`` only checks that it parses."""
    nul = source.find("\0")
    if nul >= 0:
        line = source.count("\n", 0, nul) + 1
        raise Unreadable("it contains a NUL byte (line %d, column %d): it is not Python source"
                         % (line, nul - source.rfind("\n", 0, nul)), line, nul - source.rfind("\n", 0, nul),
                         kind="nul-byte")
    try:
        if len(source) < CHUNKED_FROM:
            try:
                return ast.parse(source, filename=path)
            except (RecursionError, MemoryError) as exc:
                _parse_chunks(source, path, False)  # raises, at the statement that is too deep
                raise _too_deep(exc, 1)
        return _parse_chunks(source, path, keep)
    except SyntaxError as exc:
        raise _syntax_error(source, exc)
    except (ValueError, TypeError) as exc:
        raise Unreadable("it is not Python source (%s)" % exc, kind="syntax-error")
    except (RecursionError, MemoryError) as exc:  # the whole file's parse: no statement to point at
        raise _too_deep(exc, 1)


MAX_MERGES = 64  # cuts tried after a chunk that does not parse alone, before parsing the whole file


def _parse_chunks(source: str, path: str, keep: bool) -> Optional[ast.Module]:
    from .lint.chunks import starts_statement  # noqa: PLC0415 (the same cuts as the editor's parser)

    lines = io.StringIO(source, newline="").readlines()  # \n, \r\n and \r end a line, as for Python
    starts = [n for n, line in enumerate(lines) if n == 0 or starts_statement(line)]
    starts.append(len(lines))
    body: List[ast.stmt] = []
    ints: Dict[int, int] = {}
    i = 0
    while i < len(starts) - 1:
        for j in range(i + 1, min(i + 1 + MAX_MERGES, len(starts))):
            try:
                stmts = ast.parse("".join(lines[starts[i]:starts[j]]), filename=path).body
            except (SyntaxError, ValueError):
                continue  # a cut inside a statement (a decorator without its def, a string): merge
            except (RecursionError, MemoryError) as exc:
                raise _too_deep(exc, starts[i] + 1)
            break
        else:
            tree = ast.parse(source, filename=path)  # its own SyntaxError, or a very long statement
            return tree if keep else None
        if keep:
            delta = starts[i]
            for stmt in stmts:
                for node in ast.walk(stmt):
                    line = getattr(node, "lineno", None)
                    if line is None:
                        continue
                    line += delta
                    node.lineno = ints.setdefault(line, line)
                    end = getattr(node, "end_lineno", None)
                    if end is not None:
                        end += delta
                        node.end_lineno = ints.setdefault(end, end)
            body.extend(stmts)
        i = j
    return ast.Module(body=body, type_ignores=[]) if keep else None


def _too_deep(exc: BaseException, line: int) -> Unreadable:
    return Unreadable("this statement is nested too deeply for Python's parser (%s)" % type(exc).__name__,
                      line, kind="too-deep")


def _syntax_error(source: str, exc: SyntaxError) -> Unreadable:
    line = exc.lineno or 1
    column = 1
    if exc.offset and exc.lineno:
        text = io.StringIO(source, newline="").readlines()[line - 1: line] or [""]
        column = len(text[0][: exc.offset - 1].encode("utf-8", "surrogatepass")) + 1  # columns are UTF-8 bytes
    return Unreadable("it is not valid Python (%s: %s)" % (type(exc).__name__, exc.msg), line, column,
                      kind="syntax-error")


class SourceParser:
    """What ``lint_source`` parses with (its ``parser=``): ``parse_module``, remembering why a parse failed."""

    memo = None  # no per-function memo: each file is linted once

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.failure: Optional[Unreadable] = None

    def parse(self, source: str, path: str = "<unknown>") -> ast.Module:
        try:
            tree = parse_module(source, path)
        except Unreadable as exc:
            self.failure = exc
            raise SyntaxError(exc.reason)  # what the lint engine expects of a parse that failed
        assert tree is not None
        return tree


def lint_text(text: str, path: str) -> List[Finding]:
    """The TW3xx findings of ``text``; raises ``Unreadable`` when it does not parse, and a lint rule that
    failed on it is a TW910 finding (its results may be incomplete)."""
    from .lint import lint_source  # noqa: PLC0415

    parser = SourceParser()
    failures = _RuleFailures()
    log = logging.getLogger("tapewatch.lint")
    log.addHandler(failures)
    try:
        found = lint_source(text, path, parser=parser)
    finally:
        log.removeHandler(failures)
    if parser.failure is not None:
        raise parser.failure
    if not found and "wp" not in text and "warp" not in text:
        parse_module(text, path, keep=False)  # the lints had nothing to look at: is it Python at all?
    return found + [_finding("TW910", "A lint failed on this file (%s): its results may be incomplete." % why,
                             path, kind="internal-error") for why in failures.failures]


class _RuleFailures(logging.Handler):
    """The lint engine logs a rule (or the whole lint) that raised, and carries on: here that is kept."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.failures: List[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        exc = record.exc_info[1] if record.exc_info else None
        self.failures.append("%s: %s" % (type(exc).__name__, exc) if exc is not None else record.getMessage())


def _finding(code: str, message: str, path: str, line: int = 1, column: int = 1, **data) -> Finding:
    from . import codes  # noqa: PLC0415
    from .model import Finding, Location  # noqa: PLC0415

    return Finding(code=code, message=message, location=Location(os.path.abspath(path), line, column),
                   severity=codes.severity(code), data=dict(data, source="lint"))


def unreadable_finding(path: str, exc: Unreadable) -> Finding:
    return _finding("TW911", "Not linted: %s." % exc.reason, path, exc.line, exc.column, reason=exc.kind)


class Linted:
    """What a ``lint_paths`` saw: the files read, the findings (TW911 for a file it could not read,
    TW910 for a lint that failed), and the paths it skipped, with why."""

    def __init__(self) -> None:
        self.files: List[str] = []
        self.findings: List[Finding] = []
        self.skipped: List[Tuple[str, str]] = []

    def count(self, code: str) -> int:
        """Files with a ``code`` finding."""
        return len({f.location.path for f in self.findings if f.code == code and f.location is not None})

    @property
    def unverified(self) -> int:
        """Files that were not (entirely) checked: TW911, TW910."""
        return len({f.location.path for f in self.findings if f.code in ("TW910", "TW911") and f.location})


def lint_paths(paths: Sequence[str], config: Optional[Config] = None) -> Linted:
    config = config if config is not None else Config()
    out = Linted()
    for path, named in files_under(paths, config, out.skipped):
        try:
            text = read_source(path)
        except FileNotFoundError:
            if named:
                raise UsageError("no such file: %s" % path)
            out.skipped.append((path, "a symbolic link to a missing file" if os.path.islink(path) else "gone"))
            continue
        except NotRegular as exc:
            if named:  # asked for by name: not clean, not read
                out.files.append(path)
                out.findings.append(unreadable_finding(path, Unreadable("not a regular file (%s)" % exc.what,
                                                                        kind="not-a-file")))
            else:
                out.skipped.append((path, "not a regular file (%s)" % exc.what))
            continue
        except Unreadable as exc:
            out.files.append(path)
            out.findings.append(unreadable_finding(path, exc))
            continue
        out.files.append(path)
        try:
            found = lint_text(text, os.path.abspath(path))
        except Unreadable as exc:
            out.findings.append(unreadable_finding(path, exc))
            continue
        finally:
            del text  # a long file's text is not kept while the next one is read
        out.findings += [f for f in found if config.enabled(f.code)]  # files_under applied the excludes
    return out


def main(ns) -> int:
    from .json_layout import dumps  # noqa: PLC0415
    from .report.sarif import findings_to_sarif  # noqa: PLC0415
    from .report.escape import terminal  # noqa: PLC0415
    from .report.text import finding_lines  # noqa: PLC0415

    try:
        config = load_config(ns)
        linted = lint_paths(ns.paths or ["."], config)
    except (UsageError, ConfigError) as exc:
        print(terminal("tapewatch lint: %s" % exc), file=sys.stderr)
        return 2
    base = os.getcwd()
    for path, why in linted.skipped:
        print(terminal("tapewatch lint: skipped %s: %s" % (os.path.relpath(path, base), why)), file=sys.stderr)
    files, found, unverified = linted.files, linted.findings, linted.unverified
    if ns.format == "json":
        out = dumps({"files": len(files), "unreadable": linted.count("TW911"), "incomplete": linted.count("TW910"),
                     "findings": [f.to_json() for f in found],
                     "skipped": [{"path": p, "reason": why} for p, why in linted.skipped]})
    elif ns.format == "sarif":
        out = findings_to_sarif(found, base=base)
    else:
        lines: List[str] = []
        for f in found:
            lines += finding_lines(f, base)
        problems = len([f for f in found if f.code not in ("TW910", "TW911")])
        summary = "tapewatch lint: %d file%s, %s" % (len(files), "" if len(files) == 1 else "s",
                                                    "%d finding%s" % (problems, "" if problems == 1 else "s")
                                                    if problems else "no findings")
        unread = linted.count("TW911")
        if unread:
            summary += "; %d could not be read (TW911)" % unread
        if linted.count("TW910"):
            summary += "; %d not entirely checked: a lint failed (TW910)" % linted.count("TW910")
        lines.append(summary)
        out = "\n".join(lines)
    sys.stdout.write(out if out.endswith("\n") else out + "\n")
    if ns.exit_zero:
        return 0
    return 2 if unverified else 1 if found else 0


def load_config(ns) -> Config:
    """``[tool.tapewatch]`` for the first path (or the working directory), under the command line's options."""
    from . import config  # noqa: PLC0415

    return config.load(ns.paths[0] if ns.paths else ".").with_options(
        select=ns.select, ignore=ns.ignore, extend_select=ns.extend_select, extend_ignore=ns.extend_ignore,
        exclude=ns.exclude, extend_exclude=ns.extend_exclude, force_exclude=ns.force_exclude)


def add_parser(sub) -> None:
    import argparse  # noqa: PLC0415
    import textwrap  # noqa: PLC0415

    lint = sub.add_parser(
        "lint", help="run the static lints (TW3xx) on files and folders, without running them",
        description=textwrap.fill(
            "Run the static lints (TW3xx) on files and folders, without running them. Defaults come from "
            "[tool.tapewatch] in the nearest pyproject.toml (select, ignore, extend-select, extend-ignore, "
            "exclude, extend-exclude, force-exclude); the options below override it.", 79),
        epilog="exit status:\n" + textwrap.indent(textwrap.fill(
            "0 clean, 1 findings, 2 could not verify (a file that could not be read as Python: TW911; a lint "
            "that failed: TW910) or bad usage (a missing path, an unknown code, an invalid [tool.tapewatch])",
            77), "  "), formatter_class=argparse.RawDescriptionHelpFormatter)
    lint.add_argument("paths", nargs="*", metavar="PATH", help="files and folders (default: .)")
    lint.add_argument("--format", choices=("text", "json", "sarif"), default="text")
    lint.add_argument("--select", action="append", metavar="CODES",
                      help="only these codes or prefixes (e.g. TW301,TW30); replaces select of the configuration")
    lint.add_argument("--ignore", action="append", metavar="CODES", help="never these codes or prefixes")
    lint.add_argument("--extend-select", action="append", metavar="CODES", help="these codes too")
    lint.add_argument("--extend-ignore", action="append", metavar="CODES", help="as --ignore")
    lint.add_argument("--exclude", action="append", metavar="GLOB",
                      help="paths to skip, replacing exclude of the configuration and the defaults")
    lint.add_argument("--extend-exclude", action="append", metavar="GLOB", help="paths to skip too")
    lint.add_argument("--force-exclude", action="store_true", default=None,
                      help="apply the excludes to files named on the command line too (for pre-commit)")
    lint.add_argument("--exit-zero", action="store_true",
                      help="exit 0 even with findings or files that could not be read (bad usage is still 2)")
