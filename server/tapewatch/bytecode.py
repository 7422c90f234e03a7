"""Keeps this package's compiled bytecode, even where ``PYTHONDONTWRITEBYTECODE`` is set.

Containers often set it.  Python then never caches the modules of an
editable install or of the extension's bundled copy, and every run of the
probe (and every ``tapewatch check``) compiles Tapewatch's own modules again:
about 0.1 s of a 0.7 s repro, paid on each re-verification.  Only this
package's files are compiled, for the running interpreter; the user's own
modules still follow their setting, and a folder we cannot write is left as
it is (the import then compiles in memory, as before).
"""

from __future__ import annotations

import os
import sys

PACKAGE = os.path.dirname(os.path.abspath(__file__))


def ensure(root: str = PACKAGE) -> int:
    """Compile the package's missing or outdated bytecode files; returns how many were written."""
    tag = sys.implementation.cache_tag
    if not sys.dont_write_bytecode or tag is None:
        return 0  # Python writes them itself as the modules load
    stale = []
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [d for d in subfolders if d != "__pycache__"]
        cache = os.path.join(folder, "__pycache__")
        if not os.access(cache if os.path.isdir(cache) else folder, os.W_OK):
            continue  # a read-only install: compiling here would only be thrown away
        for name in files:
            if not name.endswith(".py"):
                continue
            source = os.path.join(folder, name)
            cached = os.path.join(folder, "__pycache__", "%s.%s.pyc" % (name[:-3], tag))
            try:
                if os.stat(cached).st_mtime >= os.stat(source).st_mtime:
                    continue
            except OSError:
                pass
            stale.append(source)
    if not stale:
        return 0
    import py_compile  # noqa: PLC0415 (only when something is missing)

    written = 0
    for source in stale:
        try:
            py_compile.compile(source, doraise=True)
            written += 1
        except (OSError, py_compile.PyCompileError):
            pass  # a file we may not replace: its import compiles in memory, as before
    return written
