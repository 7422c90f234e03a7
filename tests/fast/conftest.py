"""The fast tier: the probe installed in this test process, sensors exercised by small Warp programs.

Each test runs a few kernels on the CPU in-process (no subprocess, no
interpreter start, no tracked rebuild): the whole tier takes seconds.  The
probe is installed once per process, exactly as the pytest plugin installs
it (``probe.startup``); ``probe.events`` collects what it emits, and
``probe.findings(code)`` the findings a test produced.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


class InProcessProbe:
    def __init__(self):
        from tapewatch.probe.core import startup

        self.events: list = []
        wp = startup.import_warp(self.emit)
        assert wp is not None, self.events
        startup.prepare(wp, user_root=str(HERE))
        startup.track(wp)
        self.wp = wp
        self.probe = startup.install(wp, self.emit, graph=False, check_launches=True)
        wp.init()

    def emit(self, event: str, **fields) -> None:
        self.events.append(dict(json.loads(json.dumps(fields, default=str)), event=event))

    def findings(self, code=None) -> list:
        return [e["finding"] for e in self.events
                if e["event"] == "finding" and (code is None or e["finding"]["code"] == code)]

    def at_exit(self) -> dict:
        """What ``Probe.finish`` reports (launch-check totals, what was not measured), for this test only."""
        before = len(self.events)
        self.probe.finish()
        return {e["event"]: e for e in self.events[before:]}


_PROBE = None


@pytest.fixture()
def probe():
    """The in-process probe, its events of this test only."""
    global _PROBE
    if _PROBE is None:
        os.environ.setdefault("WARP_CACHE_PATH", str(HERE / ".." / ".." / ".cache" / "warp-fast"))
        _PROBE = InProcessProbe()
    _PROBE.events.clear()
    checks = _PROBE.probe.checks
    checks.launches.skipped.clear()
    checks.launches.outcomes.clear()
    # A graph an earlier test captured and never launched is that test's, not counted at this one's exit.
    checks.replays.at_exit()
    checks.launches.skipped.clear()
    _PROBE.probe.registry.not_measured.clear()
    return _PROBE
