"""URIs ↔ paths, keeping the client's own spelling of each URI.

Clients percent-encode URIs in slightly different ways (VS Code encodes
``:`` in drive letters, others do not).  Diagnostics must be published
under the spelling the client uses for that document, so every URI a client
sends is remembered per path and reused when publishing.
"""

from __future__ import annotations

import os
from typing import Dict, Optional

from pygls.uris import from_fs_path, to_fs_path, uri_scheme


def key(path: str) -> str:
    """The form paths are compared in (absolute, normalised; symlinks kept)."""
    return os.path.normcase(os.path.normpath(os.path.abspath(path)))


def to_path(uri: str) -> Optional[str]:
    """The file-system path of a ``file:`` URI, else None (``untitled:`` ...)."""
    try:
        if uri_scheme(uri) != "file":
            return None
        path = to_fs_path(uri)
    except Exception:  # noqa: BLE001 (malformed URI from the client)
        return None
    return path or None


class Spellings:
    """path → the URI the client used for it."""

    def __init__(self) -> None:
        self._by_key: Dict[str, str] = {}

    def remember(self, uri: str) -> Optional[str]:
        path = to_path(uri)
        if path is not None:
            self._by_key[key(path)] = uri
        return path

    def uri(self, path: str) -> str:
        k = key(path)
        found = self._by_key.get(k)
        if found is not None:
            return found
        return from_fs_path(os.path.abspath(path)) or "file://" + path
