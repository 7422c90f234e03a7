"""The private event channel: JSON Lines on a file descriptor or a path.

Events never travel on stdout/stderr, which belong to the user's program, so
a user ``print`` cannot forge or corrupt a finding.  Writes are serialised by
a lock because Warp may call our hooks from more than one thread.  Only the
process that opened the channel writes to it: a child the script forks
inherits the descriptor, and its exit (or its exception) must not end the
run or speak for the script.
"""

from __future__ import annotations

import json
import os
import threading
from typing import Any, Optional


# One encoder for every event (``json.dumps`` with options builds a new one per call).
_ENCODER = json.JSONEncoder(default=str, ensure_ascii=True)


class EventChannel:
    def __init__(self, spec: Optional[str]):
        self._lock = threading.Lock()
        self._file = None
        self._pid = os.getpid()
        if spec:
            self._file = _open(spec)

    def emit(self, event: str, **fields: Any) -> None:
        if self._file is None or os.getpid() != self._pid:
            return
        fields["event"] = event
        line = _ENCODER.encode(fields) + "\n"
        with self._lock:
            try:
                self._file.write(line)
                self._file.flush()
            except (OSError, ValueError):
                # The reader went away (cancelled run); the script carries on.
                self._file = None

    def close(self) -> None:
        if os.getpid() != self._pid:
            return  # a forked child: the descriptor is the parent's
        with self._lock:
            if self._file is not None:
                try:
                    self._file.close()
                except OSError:
                    pass
                self._file = None


def _open(spec: str):
    """``fd:N`` writes to an inherited descriptor; anything else is a path."""
    if spec.startswith("fd:"):
        fd = int(spec[3:])
        # Keep the descriptor away from the user's code: not inherited by
        # the script's own subprocesses.
        os.set_inheritable(fd, False)
        return os.fdopen(fd, "w", encoding="ascii", buffering=1, closefd=True)
    return open(spec, "a", encoding="ascii", buffering=1)
