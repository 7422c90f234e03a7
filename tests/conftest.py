"""Shared fixtures: the interpreters that run the probe, and example markers.

The probe is tested under the newest Warp (the interpreter running the
tests) and the oldest supported one (1.14, in its own venv made by
``scripts/test``; ``TAPEWATCH_OLD_WARP_PYTHON`` points elsewhere).  Under CI
a missing old-Warp interpreter is an error, not a skip.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
sys.path.insert(0, str(ROOT / "server"))


def old_warp_python():
    env = os.environ.get("TAPEWATCH_OLD_WARP_PYTHON")
    candidate = Path(env) if env else ROOT / ".venv-warp114" / "bin" / "python"
    return str(candidate) if candidate.exists() else None


WARP_PYTHONS = [pytest.param(sys.executable, id="warp-new")]
_old = old_warp_python()
if _old:
    WARP_PYTHONS.append(pytest.param(_old, id="warp-1.14", marks=pytest.mark.old_warp))
elif os.environ.get("CI"):
    raise RuntimeError("CI needs the Warp 1.14 interpreter: run scripts/test (or set TAPEWATCH_OLD_WARP_PYTHON)")
else:
    WARP_PYTHONS.append(pytest.param(None, id="warp-1.14",
                                     marks=pytest.mark.skip(reason="no Warp 1.14 venv; run scripts/test")))


def missing(reason: str) -> None:
    """A tool a test needs is not installed: a skip on a developer's machine, a failure in the full
    suite (``scripts/test`` and CI set ``CI``: ``setup.sh --all`` installs everything a test needs)."""
    if os.environ.get("CI"):
        pytest.fail("%s (the full suite installs it: scripts/setup.sh --all)" % reason, pytrace=False)
    pytest.skip(reason)


@pytest.fixture(params=WARP_PYTHONS)
def python(request):
    """The interpreter that runs the probe: each test runs under the newest and the oldest Warp."""
    return request.param


@pytest.fixture(autouse=True)
def _no_internal_errors(tmp_path_factory, request):
    """Every test that runs the probe fails on an internal error inside Tapewatch (TW910).

    The probe appends each internal error's traceback to the file named by
    ``TAPEWATCH_PROBE_ERROR_LOG`` (inherited by every probe a test starts,
    through the CLI and the language server too). Tests that provoke one on
    purpose say so with ``@pytest.mark.internal_error``.
    """
    log = tmp_path_factory.getbasetemp() / ("probe-errors-%s.log" % os.getpid())
    os.environ["TAPEWATCH_PROBE_ERROR_LOG"] = str(log)
    before = log.stat().st_size if log.exists() else 0
    yield
    if log.exists() and log.stat().st_size > before and not request.node.get_closest_marker("internal_error"):
        with open(log, encoding="utf-8") as f:
            f.seek(before)
            text = f.read()
        pytest.fail("internal error inside the probe during this test:\n" + text[-4000:], pytrace=False)


@pytest.fixture(scope="session", autouse=True)
def _private_kernel_cache(tmp_path_factory):
    """Keep Warp's kernel cache of test runs out of the user's cache folder."""
    os.environ["WARP_CACHE_PATH"] = str(tmp_path_factory.mktemp("warp-cache"))


def probe_run(script, python: str, **kw):
    """A probe run of ``script``, with its events (``.events``) and the script's stdout (``.stdout``)."""
    import asyncio

    from tapewatch.runner import RunRequest, run_probe

    events, output = [], []
    result = asyncio.run(run_probe(RunRequest(script=str(script), python=python, **kw),
                                   on_output=lambda stream, text: output.append((stream, text)),
                                   on_event=events.append))
    result.events = events
    result.stdout = "".join(text for stream, text in output if stream == "stdout")
    return result


def markers(path: Path) -> dict:
    """``# expect: TW101`` / ``# reader`` / ``# alloc: x`` ... comments → {marker: [lines]}."""
    out: dict = {}
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        for m in re.finditer(r"#\s*(expect|reader|alloc|caller|compiled-by|backward|launch)\b:?\s*(\S*)", line):
            key = m.group(1) if m.group(1) != "expect" else "expect:" + m.group(2)
            out.setdefault(key, []).append(number)
    return out


def line_of(path: Path, text: str) -> int:
    """1-based line of the first line containing ``text``."""
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if text in line:
            return number
    raise AssertionError("%r not in %s" % (text, path))
