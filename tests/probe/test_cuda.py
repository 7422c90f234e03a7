"""The CUDA path: the same example on ``cuda:0`` gives the same findings.

Runs only where Warp sees a CUDA device; everywhere else the CPU tests
cover the same code, and ``test_device_not_available`` covers the message.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

from conftest import EXAMPLES, markers
from tapewatch.runner import RunRequest, run_probe


def _has_cuda() -> bool:
    probe = "import warp as wp; wp.init(); print(wp.get_cuda_device_count())"
    try:
        out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
        return out.stdout.strip().splitlines()[-1:] not in ([], ["0"])
    except (OSError, subprocess.TimeoutExpired):
        return False


pytestmark = [pytest.mark.cuda, pytest.mark.skipif(not _has_cuda(), reason="no CUDA device here")]


@pytest.mark.parametrize("example", ["pingpong_helper.py", "copy_overwrite.py", "zero_read_array.py"])
def test_findings_on_cuda_match_the_cpu(example):
    path = EXAMPLES / example
    expected = sorted((code.split(":")[1], line) for code, lines in markers(path).items()
                      if code.startswith("expect:") for line in lines)
    result = asyncio.run(run_probe(RunRequest(script=str(path), device="cuda:0")))
    assert result.device == "cuda:0"
    assert sorted({(f.code, f.location.line) for f in result.findings}) == expected
