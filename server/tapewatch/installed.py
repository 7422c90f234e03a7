"""Is a file part of an installed package?  One answer for the probe ("just my code") and the lints.

Installed code is never linted and never holds a finding's primary location
(unless ``--library-frames``).  A file is installed when it lies under a
``site-packages``/``dist-packages`` folder, or under a folder holding
``*.dist-info`` entries: pip writes those into every install location,
including ``pip install --target DIR`` folders that appear only on
``PYTHONPATH`` (never into a source tree: an editable install keeps its
``.dist-info`` in site-packages).  Stdlib only: the probe imports it.
"""

from __future__ import annotations

import os
from typing import Dict

LIBRARY_PARTS = ("site-packages", "dist-packages")

_holds: Dict[str, bool] = {}  # folder -> it holds *.dist-info entries (asked once per folder)
MAX_KNOWN = 1 << 14


def is_installed(path: str) -> bool:
    """``path`` is inside an installed package (or an install location itself)."""
    if not path or path.startswith("<"):
        return False
    path = os.path.abspath(path)
    parts = path.split(os.sep)
    if any(p in LIBRARY_PARTS for p in parts[:-1]):
        return True
    folder = os.path.dirname(path)
    while True:
        if install_location(folder):
            return True
        parent = os.path.dirname(folder)
        if parent == folder:
            return False
        folder = parent


def install_location(folder: str) -> bool:
    """``folder`` holds installed distributions (``*.dist-info``)."""
    known = _holds.get(folder)
    if known is None:
        try:
            with os.scandir(folder) as entries:
                known = any(e.name.endswith(".dist-info") and e.is_dir(follow_symlinks=False) for e in entries)
        except OSError:
            known = False
        if len(_holds) < MAX_KNOWN:
            _holds[folder] = known
    return known
