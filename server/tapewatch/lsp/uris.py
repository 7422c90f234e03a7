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


_KEYS: Dict[str, str] = {}  # absolute path -> key: asked for every diagnostic an edit may move


def key(path: str) -> str:
    """The form paths are compared in (absolute, normalised; symlinks kept)."""
    found = _KEYS.get(path)
    if found is None:
        found = os.path.normcase(os.path.normpath(os.path.abspath(path)))
        if os.path.isabs(path):  # a relative one depends on the working directory
            if len(_KEYS) > 65536:
                _KEYS.clear()
            _KEYS[path] = found
    return found


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
        self.version = 0  # counts changed spellings: diagnostics published before name files the old way

    def remember(self, uri: str) -> Optional[str]:
        path = to_path(uri)
        if path is not None:
            k = key(path)
            if self._by_key.get(k) != uri:
                self._by_key[k] = uri
                self.version += 1
        return path

    def uri(self, path: str) -> str:
        k = key(path)
        found = self._by_key.get(k)
        if found is not None:
            return found
        return from_fs_path(os.path.abspath(path)) or "file://" + path
