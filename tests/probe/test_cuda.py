"""The CUDA tier: every example and every gallery program on ``cuda:0`` gives its markers.

Runs only where Warp sees a CUDA device (``pytest -m cuda``; ``scripts/test-cuda``
on a GPU machine); everywhere else the CPU tiers cover the same code, and
``test_device_not_available`` covers the message.  Where Warp really behaves
differently on a GPU, a program says so with a device marker and a sentence
why (``expect@cpu:``: on a GPU ``.numpy()`` is a copy, so a write to it never
reaches the array); nothing is loosened for the GPU.  NVIDIA's optimization
examples that run plain must also run under Tapewatch, with no warning or
error, every skipped check counted (``test_nvidia_examples_on_cuda``).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLES, markers
from gallery import GALLERY, PROGRAMS, wanted
from tapewatch import codes
from tapewatch.runner import RunRequest, run_probe

DEVICE = "cuda:0"


def _has_cuda() -> bool:
    probe = "import warp as wp; wp.init(); print(wp.get_cuda_device_count())"
    try:
        out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
        return out.stdout.strip().splitlines()[-1:] not in ([], ["0"])
    except (OSError, subprocess.TimeoutExpired):
        return False


pytestmark = [pytest.mark.cuda, pytest.mark.skipif(not _has_cuda(), reason="no CUDA device here")]


EXAMPLE_PROGRAMS = sorted(p.name for p in EXAMPLES.glob("*.py"))
# The examples' end-to-end finite-difference findings come from their FD harness (tests/harness), not a run.
FROM_THE_HARNESS = {"TW400", "TW401", "TW402", "TW406", "TW409", "TW410"}


def _selected(session) -> set:
    """(kind, program) of the example and gallery tests this session runs: ``-k`` reruns only those."""
    kinds = {"test_examples_on_cuda": ("example", "example"), "test_gallery_on_cuda": ("gallery", "program")}
    out = set()
    for item in session.items:
        kind = kinds.get(getattr(item, "originalname", ""))
        if kind and hasattr(item, "callspec"):
            out.add((kind[0], item.callspec.params[kind[1]]))
    return out


@pytest.fixture(scope="module")
def cuda_runs(request):
    """Every selected example and gallery program run on the GPU once, several at a time (a GPU machine
    has the cores; one after the other they would take most of a device session).  name -> RunResult."""
    selected = _selected(request.session)

    async def all_runs():
        gate = asyncio.Semaphore(max(2, (os.cpu_count() or 4) // 2))
        out = {}

        async def one(key, path, check_launches):
            async with gate:
                events: list = []
                result = await run_probe(RunRequest(script=str(path), device=DEVICE, check_launches=check_launches),
                                         on_event=events.append)
                result.events = events
                out[key] = result
                # Progress on the terminal (scripts/test-cuda runs with -s): a run cut short by its time
                # limit still shows how far it got.
                print("cuda run %d/%d %s %s" % (len(out), len(jobs), key[1], result.outcome), flush=True)

        jobs = [one(("example", name), EXAMPLES / name, True) for name in EXAMPLE_PROGRAMS
                if ("example", name) in selected]
        jobs += [one(("gallery", name), GALLERY / name, "tapewatch-test: --check-launches" in
                     (GALLERY / name).read_text()) for name in PROGRAMS if ("gallery", name) in selected]
        await asyncio.gather(*jobs)
        return out

    return asyncio.run(all_runs())


@pytest.mark.parametrize("example", EXAMPLE_PROGRAMS)
def test_examples_on_cuda(cuda_runs, example):
    path = EXAMPLES / example
    expected = sorted((code.split(":")[1], line) for code, lines in markers(path).items()
                      if code.startswith("expect:") and codes.severity(code.split(":")[1]) in ("warning", "error")
                      and code.split(":")[1] not in FROM_THE_HARNESS for line in lines)
    result = cuda_runs[("example", example)]
    assert result.device == DEVICE
    assert not result.incomplete, [f.message for f in result.findings if f.code == "TW910"]
    assert sorted({(f.code, f.location.line) for f in result.findings
                   if f.severity in ("warning", "error")}) == sorted(set(expected))


@pytest.mark.parametrize("program", PROGRAMS)
def test_gallery_on_cuda(cuda_runs, program):
    script = GALLERY / program
    result = cuda_runs[("gallery", program)]
    assert result.outcome in ("ok", "raised"), result.stderr_tail
    assert result.device == DEVICE
    assert not result.incomplete, [f.message for f in result.findings if f.code == "TW910"]
    marks = wanted(script, DEVICE)
    got = {(Path(f.location.path).name, f.code, f.location.line) for f in result.findings
           if f.severity in ("warning", "error")}
    info = {(Path(f.location.path).name, f.code, f.location.line) for f in result.findings
            if f.severity == "information" and f.code != "TW107"}
    detail = [(Path(f.location.path).name, f.code, f.location.line, f.severity, f.message[:160])
              for f in result.findings]
    assert got == marks["expect"], detail
    assert info == marks["note"], detail


NVIDIA_EXAMPLES = [
    ("optim", "example_fluid_checkpoint.py", ["--train-iters", "3"]),
    ("optim", "example_fluid_checkpoint_custom_backward.py", ["--train-iters", "3"]),
    ("optim", "example_navier_stokes_perturbation.py", ["--headless", "--train-iters", "3"]),
    ("optim", "example_particle_repulsion.py", ["--headless"]),
    ("fem", "example_darcy_ls_optimization.py", ["--headless"]),
]


@pytest.mark.parametrize("folder, name, args", NVIDIA_EXAMPLES, ids=[n for _, n, _ in NVIDIA_EXAMPLES])
def test_nvidia_examples_on_cuda(folder, name, args):
    """A program that runs plain runs under Tapewatch, quiet, with every check it could not run counted."""
    import warp

    script = Path(warp.__file__).parent / "examples" / folder / name
    plain = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True, timeout=900)
    if plain.returncode != 0:
        pytest.skip("does not run plain here: %s" % plain.stderr[-300:])
    result = asyncio.run(run_probe(RunRequest(script=str(script), device=DEVICE, args=list(args), timeout=900)))
    detail = [(f.code, f.location.path if f.location else None, f.message[:200]) for f in result.findings]
    assert result.outcome == "ok" and result.exit_code == 0, (result.stderr_tail, detail)
    assert [f for f in result.findings if f.severity in ("warning", "error")] == [], detail
    checks = result.launch_checks or {}
    assert sum(checks.get("skip_reasons", {}).values()) == checks.get("skipped", 0)
