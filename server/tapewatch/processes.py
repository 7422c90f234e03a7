"""Every process a run started, so that none outlives it.

The probe runs in its own process group, and killing the group ends most of
the tree.  A descendant that calls ``setsid`` (a daemonising helper) leaves
the group and would survive the run, the server, and hold file descriptors.
So, on Linux:

- the process that starts runs (the CLI, the language server) makes itself
  a *child subreaper*: an orphaned descendant is re-parented to it instead
  of to init, so it stays findable;
- while a run goes on, its descendants are looked up through ``/proc``
  (parent links) and remembered with their start time;
- when the run ends they are all killed, with the orphans adopted since the
  run started (and their descendants), the start time guarding against a
  reused pid, and the adopted ones are reaped.

Without ``/proc`` only the process group is killed.
"""

from __future__ import annotations

import contextlib
import os
import signal
from typing import Dict, Optional

PROC = "/proc"


def _stat(pid: int) -> Optional[tuple]:
    """(parent pid, start time) of a process, or None."""
    try:
        with open(os.path.join(PROC, str(pid), "stat"), "rb") as f:
            data = f.read()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: split after its last ")".
    rest = data[data.rfind(b")") + 2:].split()
    try:
        return int(rest[1]), int(rest[19])
    except (IndexError, ValueError):
        return None


_subreaper = None
_active: set = set()  # pids of runs in progress in this process (never adopted orphans)
_trees: Dict[int, "Descendants"] = {}  # the same runs, to end them all at once


def become_subreaper() -> bool:
    """Orphaned descendants come to this process rather than to init (Linux 3.4+)."""
    global _subreaper
    if _subreaper is None:
        _subreaper = False
        try:
            import ctypes  # noqa: PLC0415

            libc = ctypes.CDLL(None, use_errno=True)
            _subreaper = libc.prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
        except (OSError, AttributeError):
            _subreaper = False
    return _subreaper


def now_ticks() -> int:
    """The current time in the unit of ``/proc/PID/stat`` start times (clock ticks since boot)."""
    try:
        with open(os.path.join(PROC, "uptime")) as f:
            return int(float(f.read().split()[0]) * os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0


class Descendants:
    def __init__(self, root: int):
        self.root = root
        self.seen: Dict[int, int] = {}  # pid -> start time
        self.available = os.path.isdir(PROC)
        self.since = now_ticks() - 1  # orphans adopted after this are the run's
        self.adopted: set = set()
        _active.add(root)
        _trees[root] = self
        become_subreaper()

    def scan(self) -> None:
        """Remember every current descendant of the root (and of those already remembered)."""
        if not self.available:
            return
        try:
            pids = [int(p) for p in os.listdir(PROC) if p.isdigit()]
        except OSError:
            return
        parents: Dict[int, tuple] = {}
        for pid in pids:
            st = _stat(pid)
            if st is not None:
                parents[pid] = st
        family = {self.root} | set(self.seen)
        me = os.getpid()
        if become_subreaper():
            # Orphans re-parented to us since the run started (not another run's probe).
            for pid, (ppid, start) in parents.items():
                if ppid == me and start >= self.since and pid not in _active and pid not in family:
                    family.add(pid)
                    self.seen[pid] = start
                    self.adopted.add(pid)
        grew = True
        while grew:
            grew = False
            for pid, (ppid, start) in parents.items():
                if ppid in family and pid not in family:
                    family.add(pid)
                    self.seen[pid] = start
                    grew = True

    def kill_all(self) -> None:
        for pid, start in list(self.seen.items()):
            st = _stat(pid)
            if st is not None and st[1] == start:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
        self.seen.clear()
        self._reap()

    def finish(self) -> None:
        """The run is over: kill what is left and stop counting its probe as active."""
        self.scan()
        self.kill_all()
        _active.discard(self.root)
        _trees.pop(self.root, None)


    def _reap(self) -> None:
        """Adopted orphans are our children once re-parented: collect their exit status."""
        me = os.getpid()
        for pid in list(self.adopted):
            st = _stat(pid)
            if st is not None and st[0] != me:
                continue
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                self.adopted.discard(pid)
                continue
            if done:
                self.adopted.discard(pid)


def end_all_runs() -> None:
    """Kill every run in progress in this process, synchronously (the server is leaving now)."""
    for tree in list(_trees.values()):
        kill_group(tree.root)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(tree.root, signal.SIGKILL)
        tree.finish()


def kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
