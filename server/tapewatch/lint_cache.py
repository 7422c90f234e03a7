"""Lint results kept between runs, for files that have not changed.

A verification lints the script and the modules its kernels came from, and
re-verifying after an edit elsewhere lints the same text again: on a
3,000-line script that was a tenth of a warm run's CPU.  One entry per
file (a new text replaces the old entry, so the folder stays as large as
the set of files linted), valid while all of these are unchanged: the
file's bytes, the Python that parsed it, Tapewatch's own source files,
and every sibling module the lint read (``from config import SUBSTEPS``),
including those it looked for and did not find.  Any failure reads as a
miss: the cache can make a lint faster, never different.  The folder is
the probe's (``probe.fact_cache``).
"""

from __future__ import annotations

import hashlib
import os
import sys
from typing import List, Optional, Sequence

from .model import Finding
from .probe.core import fact_cache

KIND = "lint"
_engine: Optional[str] = None


def lint(source: bytes, path: str) -> List[Finding]:
    """``lint_source(source, path)``, from the cache when nothing it depends on changed."""
    from .lint import context, lint_source  # noqa: PLC0415 (the lint engine: loaded when a run lints)

    path = os.path.abspath(path)
    entry_key = fact_cache.key(KIND, path)
    expected = {"source": hashlib.sha256(source).hexdigest(), "python": sys.version, "engine": _engine_stamp()}
    kept = fact_cache.load(KIND, entry_key)
    if isinstance(kept, dict) and all(kept.get(k) == v for k, v in expected.items()) \
            and _unchanged(kept.get("inputs")):
        try:
            return [Finding.from_json(obj) for obj in kept["findings"]]
        except (KeyError, TypeError, ValueError):
            pass  # a torn or foreign entry: lint again
    with context.recording_reads() as reads:
        found = _lint_bytes(source, path, lint_source)
    fact_cache.store(KIND, entry_key, dict(expected, inputs=[list(r) for r in reads],
                                           findings=[f.to_json() for f in found]))
    return found


def _lint_bytes(source: bytes, path: str, lint_source) -> List[Finding]:
    """The file's text as Python reads it (its PEP 263 coding declaration honoured), parsed in bounded
    memory (``lint_cli.SourceParser``); a file that cannot be decoded has no lints (the run reports a
    script that does not compile as TW902)."""
    from .lint_cli import SourceParser, Unreadable, decode_source  # noqa: PLC0415

    try:
        text = decode_source(source)
    except Unreadable:
        return []
    return lint_source(text, path, parser=SourceParser())


def _unchanged(inputs) -> bool:
    if not isinstance(inputs, list):
        return False
    for item in inputs:
        if not isinstance(item, Sequence) or len(item) != 3:
            return False
        path, mtime, size = item
        try:
            stat = os.stat(path)
        except OSError:
            if mtime is not None:
                return False
            continue
        if (stat.st_mtime_ns, stat.st_size) != (mtime, size):
            return False
    return True


def _engine_stamp() -> str:
    """A digest of Tapewatch's own ``.py`` files and when each last changed (an editable install
    changes in place; a release changes its files)."""
    global _engine
    if _engine is None:
        root = os.path.dirname(os.path.abspath(__file__))
        stamps = []
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".py"):
                    try:
                        stat = os.stat(os.path.join(folder, name))
                    except OSError:
                        continue
                    stamps.append([os.path.relpath(os.path.join(folder, name), root), stat.st_mtime_ns,
                                   stat.st_size])
        _engine = fact_cache.key(root, stamps)
    return _engine
