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

All of that needs this process alive.  Killed by SIGKILL (nothing can catch
it: an OOM killer, ``kill -9``, a CI runner's timeout), it would leave every
run's tree running.  So the first run also starts a *watchdog*: a small
process of its own (its own session, stdlib only, in Tapewatch's
interpreter, deaf to the terminal's signals) that is told each run's process
group and each descendant found through ``/proc`` as they come and go, on a
pipe only this process holds.  When this process dies, however it dies, the
kernel closes the pipe, the watchdog reads its end and kills what is still
registered (descendants only when their start time still matches).  This is
the parent-death signal done for the whole tree: ``PR_SET_PDEATHSIG`` would
reach the probe alone, not what the script started.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import subprocess
import sys
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


_WATCHDOG_CODE = r"""
import os, signal, sys
for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGPIPE"):
    if hasattr(signal, name):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
groups, pids = set(), {}
def started(pid):
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            data = f.read()
        return int(data[data.rfind(b")") + 2:].split()[19])
    except (OSError, ValueError, IndexError):
        return None
for line in sys.stdin.buffer:
    op, _, rest = line.strip().partition(b" ")
    try:
        nums = [int(x) for x in rest.split()]
    except ValueError:
        continue
    if op == b"+g" and nums:
        groups.add(nums[0])
    elif op == b"-g" and nums:
        groups.discard(nums[0])
    elif op == b"+p" and len(nums) == 2:
        pids[nums[0]] = nums[1]
    elif op == b"-p" and nums:
        pids.pop(nums[0], None)
for pgid in groups:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except OSError:
        pass
for pid, start in pids.items():
    if started(pid) == start:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
"""


class _Watchdog:
    """The process that ends the runs' trees if this one dies (see the module's docstring)."""

    def __init__(self) -> None:
        self.proc: Optional[subprocess.Popen] = None
        self.unavailable = os.name != "posix"
        self.owner = os.getpid()

    def tell(self, *lines: str) -> None:
        if self.unavailable:
            return
        if self.proc is None or self.owner != os.getpid():  # (a forked copy of this process starts its own)
            self.owner = os.getpid()
            try:
                self.proc = subprocess.Popen(
                    [sys.executable, "-I", "-S", "-c", _WATCHDOG_CODE], stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
            except (OSError, ValueError):
                self.unavailable = True
                return
            _active.add(self.proc.pid)  # our child, never a run's adopted orphan
            atexit.register(self.close)
        try:
            self.proc.stdin.write("".join(line + "\n" for line in lines).encode())
            self.proc.stdin.flush()
        except (OSError, ValueError):  # it died: the runs are still ended by this process
            self.unavailable = True

    def close(self) -> None:
        """This process is leaving normally: nothing is registered any more, let the watchdog go."""
        proc = self.proc
        if proc is None or self.owner != os.getpid():
            return
        self.proc = None
        with contextlib.suppress(OSError, ValueError):
            proc.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(0.5)


_watchdog = _Watchdog()


def watch_group(pgid: int) -> None:
    """A run's process group exists: killed with it if this process dies."""
    _watchdog.tell("+g %d" % pgid)


def forget_group(pgid: int) -> None:
    _watchdog.tell("-g %d" % pgid)


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
        self.told: set = set()  # descendants the watchdog knows
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
        new = [(pid, start) for pid, start in self.seen.items() if pid not in self.told]
        if new:  # a setsid escapee is out of the process group: the watchdog needs it by name
            _watchdog.tell(*("+p %d %d" % item for item in new))
            self.told.update(pid for pid, _ in new)

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
        _watchdog.tell("-g %d" % self.root, *("-p %d" % pid for pid in self.told))
        self.told.clear()


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
