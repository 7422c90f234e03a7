"""Tapewatch ⊇ Warp: every warning Warp's own tracker prints for a bundled
example is among the findings of a probe run of it (the call-shape corpus
is checked in test_call_shapes.py)."""

from __future__ import annotations

import asyncio

import pytest

from conftest import EXAMPLES
from tapewatch.runner import RunRequest, run_probe
from warp_warnings import missing_from, warnings_of

SCRIPTS = sorted(p.name for p in EXAMPLES.glob("*.py") if "fdcheck" not in p.name)


@pytest.mark.parametrize("example", SCRIPTS)
def test_every_warp_warning_is_a_finding(python, example):
    script = EXAMPLES / example
    warned = warnings_of(python, script)
    result = asyncio.run(run_probe(RunRequest(script=str(script), python=python)))
    assert not result.incomplete
    assert missing_from(warned, result.findings) == []
