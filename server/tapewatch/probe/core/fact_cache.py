"""Facts that cost time to find and never change for given inputs, kept between runs.

What this Warp installation can do (``warp_seams.features``: it imports
``warp.autograd`` and reads signatures, ~30 ms).  A re-verification finds
it here instead of paying for it again.  (Kernel read/write marks and
Warp's intra-kernel warnings are not kept: Warp's Python code generation,
which sets them, runs on every run; see ``warp_seams.reuse_cached_binaries``.)

Each fact is one small JSON file named by a hash of everything it depends
on, so a changed input is a different file: nothing is ever invalidated in
place.  The folder is ``$TAPEWATCH_CACHE_DIR``, else
``$XDG_CACHE_HOME/tapewatch``, else ``~/.cache/tapewatch``.  Any failure
(no home, a read-only disk, a torn file) reads as a miss, and the fact is
found the slow way: the cache can make a run faster, never different.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any, Optional

_folder: Optional[str] = None


def folder() -> str:
    global _folder
    if _folder is None:
        base = os.environ.get("TAPEWATCH_CACHE_DIR")
        if not base:
            xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
            base = os.path.join(xdg, "tapewatch")
        _folder = base
    return _folder


def key(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, default=str).encode("utf-8")).hexdigest()[:32]


def _path(kind: str, digest: str) -> str:
    return os.path.join(folder(), "%s-%s.json" % (kind, digest))


def load(kind: str, digest: str) -> Optional[Any]:
    try:
        with open(_path(kind, digest), "rb") as f:
            return json.loads(f.read())
    except (OSError, ValueError):
        return None


def store(kind: str, digest: str, value: Any) -> None:
    """Write atomically (a concurrent run reads the old file or the new one, never half of one)."""
    path = _path(kind, digest)
    tmp = "%s.%d.tmp" % (path, os.getpid())
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(value, f)
        os.replace(tmp, path)
    except (OSError, TypeError, ValueError):
        try:
            os.unlink(tmp)
        except OSError:
            pass


def installation(module) -> list:
    """What identifies an installed package's code: where it is, its version, and when each of its
    Python files (and those one folder down) last changed."""
    root = os.path.dirname(os.path.abspath(module.__file__))
    stamps = []
    for folder_ in (root, os.path.join(root, "_src")):
        try:
            with os.scandir(folder_) as entries:
                stamps += sorted((e.name, e.stat().st_mtime_ns) for e in entries if e.name.endswith(".py"))
        except OSError:
            pass
    return [root, getattr(module, "__version__", None), stamps]
