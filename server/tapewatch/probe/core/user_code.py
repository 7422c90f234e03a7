"""Which frames are the user's ("just my code"): the script, its folder and any user root, never
Tapewatch, Warp or an installed package unless ``--library-frames``.

A finding's primary location is the innermost user frame: the ``wp.launch``/``wp.copy`` line the user
must change; the user frames above it (a helper called from a training loop) become related locations.
Every question is decided once per file.
"""

from __future__ import annotations

import os
import sys
from typing import Dict, List, Optional, Tuple

import runpy as _runpy

from ...installed import is_installed

_TAPEWATCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_skip_prefixes: Tuple[str, ...] = (_TAPEWATCH_DIR + os.sep,)
# Before 3.11 runpy is a plain file of the standard library, not "<frozen runpy>".
_skip_files = {os.path.abspath(_runpy.__file__)} if getattr(_runpy, "__file__", None) else set()
_is_user: Dict[str, bool] = {}  # asked for every frame of every event: decided once per file
_is_library: Dict[str, bool] = {}  # the same for the library frames under a user's call


def _forget() -> None:
    """The rules changed: every file is decided again."""
    _is_user.clear()
    _is_library.clear()


def skip_package(path: str) -> None:
    """Treat frames from ``path`` (a package folder, e.g. Warp's) as not the user's."""
    global _skip_prefixes
    prefix = os.path.abspath(path) + os.sep
    if prefix not in _skip_prefixes:
        _skip_prefixes = _skip_prefixes + (prefix,)
        _forget()


def _library_prefixes() -> Tuple[str, ...]:
    """Installed packages and the standard library: code the user did not write."""
    import site  # noqa: PLC0415
    import sysconfig  # noqa: PLC0415

    paths: List[str] = []
    for getter in (getattr(site, "getsitepackages", None), getattr(site, "getusersitepackages", None)):
        try:
            found = getter() if getter is not None else []
        except Exception:
            found = []
        paths.extend([found] if isinstance(found, str) else found)
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        try:
            paths.append(sysconfig.get_paths()[key])
        except (KeyError, OSError):
            pass
    return tuple(sorted({os.path.abspath(p) + os.sep for p in paths if p}, key=len, reverse=True))


_library: Tuple[str, ...] = _library_prefixes()
_user_roots: Tuple[str, ...] = ()


def show_library_frames() -> None:
    """Treat installed packages as the user's (``--library-frames``): findings may land inside them."""
    global _library
    _library = ()
    _forget()


def user_root(path: str) -> None:
    """A folder of the user's (a test suite's root), even inside an installed package; a package Tapewatch
    skips (Warp) that lies inside it is still skipped."""
    global _user_roots
    _user_roots = _user_roots + (os.path.abspath(path) + os.sep,)
    _forget()


_user_files: frozenset = frozenset()


def user_script(path: str) -> None:
    """The script a run executes is the user's wherever it lives (NVIDIA's examples inside Warp's package),
    and so is its folder unless that folder is installed code (then only the script itself)."""
    global _user_files
    path = os.path.abspath(path)
    if path in _user_files:
        return
    _user_files = _user_files | {path}
    folder = os.path.dirname(path)
    if not is_installed(path):
        user_root(folder)
    _forget()


def _in_user_root(filename: str) -> bool:
    for root in _user_roots:
        if filename.startswith(root):
            # A skipped package inside the root (Warp under a root of site-packages) stays skipped.
            return not any(p.startswith(root) and filename.startswith(p) for p in _skip_prefixes)
    return False


def is_library_file(filename: str) -> bool:
    """An installed package or the standard library (not Warp's, not Tapewatch's)."""
    known = _is_library.get(filename)
    if known is None:
        known = _is_library[filename] = _decide_library_file(filename)
    return known


def _decide_library_file(filename: str) -> bool:
    if not filename or filename.startswith("<") or filename.startswith(_skip_prefixes):
        return False
    if filename in _user_files or _in_user_root(filename):
        return False
    if not _library:
        return False  # --library-frames: installed packages are the user's
    return filename.startswith(_library) or is_installed(filename)


def is_user_file(filename: str) -> bool:
    known = _is_user.get(filename)
    if known is None:
        known = _is_user[filename] = _decide_user_file(filename)
    return known


def _decide_user_file(filename: str) -> bool:
    if not filename or filename.startswith("<"):
        return False  # <frozen runpy>, <string>, <stdin>...
    if filename in _user_files:
        return True
    if filename.startswith(_skip_prefixes[0]) or filename in _skip_files:
        return False  # Tapewatch itself, runpy
    if _in_user_root(filename):
        return True
    if filename.startswith(_skip_prefixes):
        return False
    return not is_library_file(filename)


def innermost_library_frame(start=None):
    """The library frame a user call led into, if the innermost foreign frame is a library's."""
    frame = start if start is not None else sys._getframe(1)
    while frame is not None:
        name = frame.f_code.co_filename
        if is_library_file(name):
            return frame
        if is_user_file(name):
            return None
        frame = frame.f_back
    return None


def user_frames(start=None, limit: int = 12) -> list:
    """User frames, innermost first, up to ``limit`` of them."""
    frame = start if start is not None else sys._getframe(1)
    out: list = []
    while frame is not None and len(out) < limit:
        if is_user_file(frame.f_code.co_filename):
            out.append(frame)
        frame = frame.f_back
    return out


def innermost_user_frame(start=None):
    frame = start if start is not None else sys._getframe(1)
    while frame is not None:
        if is_user_file(frame.f_code.co_filename):
            return frame
        frame = frame.f_back
    return None


def api_called(start=None) -> Optional[str]:
    """Name of the outermost Warp function below the innermost user frame.

    That is the API the user called: ``assign`` or ``clone`` when those
    delegate to ``copy``.
    """
    frame = start if start is not None else sys._getframe(1)
    name = None
    while frame is not None:
        if is_user_file(frame.f_code.co_filename):
            return name
        if not frame.f_code.co_filename.startswith(_TAPEWATCH_DIR):
            name = frame.f_code.co_name
        frame = frame.f_back
    return name
