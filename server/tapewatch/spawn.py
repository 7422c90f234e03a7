"""Starting the probe: what a run asks for, its command line, its environment, its process.

No event loop here, on purpose: ``tapewatch check`` starts the probe before
it loads asyncio and the rest of the runner, so the user's interpreter
starts (and imports Warp) on another core while the CLI is still loading.
``runner.run_probe`` takes the started process over, or starts it itself.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import subprocess
import sys
import time
import tokenize
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from . import defaults
from .processes import become_subreaper, forget_group, kill_group, watch_group

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]


@dataclass
class RunRequest:
    script: str
    python: str = sys.executable
    device: str = defaults.DEVICE
    timeout: float = defaults.TIMEOUT_S
    cwd: Optional[str] = None
    args: List[str] = field(default_factory=list)
    env: Dict[str, str] = field(default_factory=dict)
    graph: bool = defaults.GRAPH
    check_launches: bool = defaults.CHECK_LAUNCHES  # per-launch adjoint check (TW404)
    library_frames: bool = defaults.LIBRARY_FRAMES  # findings inside installed packages stay there
    lint: bool = defaults.LINT  # the static lints of every user file the run involved (TW3xx)
    cold: bool = False  # rebuild every kernel module as Warp's tracker does (no cached binaries)


def probe_pythonpath() -> str:
    """A folder holding only the ``tapewatch`` package, for the user's PYTHONPATH.

    The probe must import in the user's interpreter without dragging this
    environment's site-packages (pygls, another NumPy...) along with it.
    """
    package = os.path.dirname(os.path.abspath(__file__))
    parent = os.path.dirname(package)
    if set(os.listdir(parent)) <= {"tapewatch", "tapewatch.egg-info", "__pycache__"}:
        return parent
    import tempfile  # noqa: PLC0415 (an installed package never gets here)

    link_root = os.path.join(tempfile.gettempdir(), "tapewatch-probe-%d" % os.getuid()
                             if hasattr(os, "getuid") else "tapewatch-probe")
    os.makedirs(link_root, exist_ok=True)
    link = os.path.join(link_root, "tapewatch")
    if os.path.realpath(link) != package:
        tmp = link + ".%d" % os.getpid()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        os.symlink(package, tmp)
        os.replace(tmp, link)
    return link_root


def regular_file(path: str) -> str:
    """Why ``path`` is not a regular file to read ("" when it is one): never opens it."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "a symbolic link to a missing file" if os.path.islink(path) else "no such file"
    except OSError as exc:
        return "cannot be looked at (%s)" % (exc.strerror or exc)
    if stat.S_ISREG(mode):
        return ""
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))
    return "not a regular file (%s)" % next((name for test, name in kinds if test(mode)), "not a plain file")


def read_head(path: str, size: int) -> bytes:
    """The first ``size`` bytes of a regular file (b"" for anything else, or on an error): a FIFO
    is opened without blocking and never read."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return b""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b""
        parts, left = [], size
        while left > 0:
            block = os.read(fd, left)
            if not block:
                break
            parts.append(block)
            left -= len(block)
        return b"".join(parts)
    except OSError:
        return b""
    finally:
        os.close(fd)


HARNESS_HEADER = b"# tapewatch-harness-for: "


def is_harness(script: str) -> bool:
    """A harness file runs itself (it replays its script); anything else runs under the probe.

    Only the harness's own header counts: a *comment* near the top that starts with the
    marker (the same text in a docstring or a string does not).
    """
    head = read_head(script, 4096)
    if HARNESS_HEADER not in head:
        return False
    marker = HARNESS_HEADER.decode().strip()
    try:
        for tok in tokenize.tokenize(io.BytesIO(head).readline):
            if tok.type == tokenize.COMMENT and tok.string.startswith(marker) and tok.start[1] == 0:
                return True
    except (tokenize.TokenError, SyntaxError, UnicodeDecodeError):
        pass  # the head ends mid-token: what was read so far decided
    return False


def find_harness(script: str) -> Optional[str]:
    """The newest harness written for ``script`` in its folder, if any."""
    folder, name = os.path.split(os.path.abspath(script))
    stem = os.path.splitext(name)[0]
    found = []
    for entry in os.listdir(folder):
        if entry.startswith(stem + "_fdcheck") and entry.endswith(".py"):
            path = os.path.join(folder, entry)
            try:
                with open(path, encoding="utf-8") as f:
                    head = f.read(2048)
            except OSError:
                continue
            if (HARNESS_HEADER.decode() + name) in head:
                found.append((os.path.getmtime(path), path))
    return max(found)[1] if found else None



def probe_command(req: RunRequest, events_fd: int) -> List[str]:
    if is_harness(req.script):
        cmd = [req.python, os.path.abspath(req.script), "--events", "fd:%d" % events_fd]
        return cmd + (["--device", req.device] if req.device else []) + list(req.args)
    cmd = [req.python, "-m", "tapewatch.probe", "--events", "fd:%d" % events_fd]
    if req.device:
        cmd += ["--device", req.device]
    if not req.graph:
        cmd.append("--no-graph")
    if req.check_launches:
        cmd.append("--check-launches")
    if req.library_frames:
        cmd.append("--library-frames")
    if req.cold:
        cmd.append("--cold")
    return cmd + ["--", os.path.abspath(req.script)] + list(req.args)


def probe_env(req: RunRequest) -> Dict[str, str]:
    env = dict(os.environ)
    env.update({str(k): str(v) for k, v in req.env.items()})
    path = probe_pythonpath()
    env["PYTHONPATH"] = path + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONUNBUFFERED"] = "1"  # the user's prints stream while the run goes on
    env.setdefault("PYTHONIOENCODING", "utf-8")
    return env


class Started:
    """A probe process and the read end of its event pipe, owned by whoever runs it to the end."""

    def __init__(self, proc: subprocess.Popen, events_fd: int):
        self.proc = proc
        self.events_fd = events_fd
        self.at = time.perf_counter()
        self.claimed = False  # a run took it over: from then on the run ends it

    def abandon(self) -> None:
        """End it unless a run took it over (the CLI was interrupted before its loop started)."""
        if self.claimed:
            return
        self.claimed = True
        kill_group(self.proc.pid)
        with contextlib.suppress(OSError):
            self.proc.kill()
        self.proc.wait()
        forget_group(self.proc.pid)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
        with contextlib.suppress(OSError):
            os.close(self.events_fd)


EVENT_PIPE_BYTES = 1 << 20  # Linux's default ceiling for an unprivileged process


def _widen(fd: int) -> None:
    """A larger event pipe where the system allows it (Linux): a 64 KiB pipe holds ~50 findings, so
    a reader busy for a moment (the CLI's lint of a long script holds the GIL for ~0.25 s) stalled
    the probe's next write, and the user's program with it."""
    setsize = getattr(fcntl, "F_SETPIPE_SZ", None) if fcntl is not None else None
    if setsize is None:
        return
    with contextlib.suppress(OSError):  # over the system's limit: keep the default size
        fcntl.fcntl(fd, setsize, EVENT_PIPE_BYTES)


def start(req: RunRequest) -> Started:
    """Start the probe on ``req`` (raises OSError or ValueError when the interpreter cannot start).

    In its own session: a timeout or a cancel kills the whole process group.
    Unbuffered pipes, so that the runner's event loop can read them.
    """
    become_subreaper()  # before the first descendant exists: orphans of the run come back to us
    read_fd, write_fd = os.pipe()
    _widen(write_fd)
    try:
        proc = subprocess.Popen(
            probe_command(req, write_fd), bufsize=0,
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=req.cwd or os.path.dirname(os.path.abspath(req.script)), env=probe_env(req),
            pass_fds=(write_fd,), start_new_session=True)
    except BaseException:
        os.close(read_fd)
        raise
    finally:
        os.close(write_fd)
    watch_group(proc.pid)  # ended with its tree even if this process is killed (processes.py)
    return Started(proc, read_fd)
