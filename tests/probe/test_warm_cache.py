"""Warm runs reuse Warp's cached kernel binaries and still say exactly what a cold run says.

A cold run rebuilds every kernel module, as Warp's tracker forces; a warm
run loads the cached binary and runs only the Python code generation that
sets the tracker's read/write marks.  Every example and one gallery program
of each shape (every code and every check once: the marks are the kernels',
whichever program launches them) must give identical findings both ways, on
both Warp versions.  (A cold run rebuilds every module: the whole gallery
twice over was the longest test of the suite.)
"""

from __future__ import annotations

import asyncio
import os
import tempfile

import pytest

from conftest import EXAMPLES
from gallery import runs
from tapewatch.runner import RunRequest, run_probe

EXAMPLE_PROGRAMS = sorted(p.name for p in EXAMPLES.glob("*.py"))


def _key(result):
    return sorted((f.code, f.location.path if f.location else None, f.location.line if f.location else None,
                   f.severity, f.message, f.count) for f in result.findings)


@pytest.mark.parametrize("program", EXAMPLE_PROGRAMS)
def test_cold_and_warm_runs_agree(python, program):
    _cold_equals_warm(python, program)


@pytest.mark.parametrize("python, program", list(runs(prefix="gallery/", one_per_shape=True)))
def test_cold_and_warm_runs_agree_on_the_gallery(python, program):
    _cold_equals_warm(python, program)


def _cold_equals_warm(python, program):
    cache = tempfile.mkdtemp(prefix="tw-warm-")
    script = str(EXAMPLES / program)
    env = {"WARP_CACHE_PATH": cache}
    cold = asyncio.run(run_probe(RunRequest(script=script, python=python, cold=True, env=env)))
    warm = asyncio.run(run_probe(RunRequest(script=script, python=python, env=env)))
    assert warm.features.get("warm_cache") is True and cold.features.get("warm_cache") is False
    assert _key(cold) == _key(warm)
    assert os.listdir(cache)  # the cold run filled the cache the warm run read
