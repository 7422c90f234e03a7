"""Each sensor test starts with no finding reported and leaves the launch-check budget as it found it.

The probe is installed once per process and its registry counts a repeat of a finding it already
reported (same code and line) instead of reporting it again: a look-alike that runs a line an earlier
test reported (a shared helper, a kernel's own line) would pass whatever the sensor did, and a trigger
would pass or fail by test order (``-n 2`` spreads tests over two processes).  Forgetting what earlier
tests reported makes each test see what its own program produces.

Launches are checked against finite differences within a budget per process (``MAX_CHECKED_LAUNCHES``
in ``probe/backward/launch_check.py``): each test here gets it whole, and the tests of ``tests/fast``
that count launch checks find it as it was before the sensor tests ran."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fresh_findings(probe):
    probe.probe.registry.forget()
    launches = probe.probe.checks.launches
    checked, launches.checked = launches.checked, 0
    yield
    launches.checked = checked
