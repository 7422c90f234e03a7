"""The harness says PASS and FAIL only where finite differences measure, INCONCLUSIVE (with the reason)
where they cannot, and checks a second, seeded point where a bug hidden at the program's own values shows."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path


from tapewatch.harness.generate import generate
from tapewatch.runner import RunRequest, run_probe

PROGRAMS = Path(__file__).parent / "programs"


def verdict(tmp_path, program, python):
    script = tmp_path / program
    shutil.copy(PROGRAMS / program, script)
    harness = generate(str(script), python)
    result = asyncio.run(run_probe(RunRequest(script=harness, python=python)))
    [finding] = [f for f in result.findings if f.data.get("parameter") and f.code != "TW406"][:1]
    return finding


def test_a_staircase_is_inconclusive_not_failed(tmp_path, python):
    f = verdict(tmp_path, "rounding_staircase.py", python)
    assert f.code == "TW409" and f.severity == "information" and f.data["verdict"] == "inconclusive"
    assert f.data["nonsmooth"] >= 1 and "kink or a jump" in f.message and "straight-through" in f.message


def test_rounding_noise_is_inconclusive_with_the_floor(tmp_path, python):
    f = verdict(tmp_path, "float32_noise.py", python)
    assert f.code == "TW409" and f.data["noise_floor"] > 1.0
    assert "noise floor" in f.message and "float64" in f.message


def test_a_bug_hidden_at_zero_shows_at_the_second_point(tmp_path, python):
    f = verdict(tmp_path, "vanishes_at_zero.py", python)
    assert f.code == "TW401" and "second point" in f.data["point"] and "second point" in f.message


def test_a_hand_seeded_backward_and_a_parameter_in_a_module(tmp_path, python):
    shutil.copy(PROGRAMS / "params_model.py", tmp_path / "params_model.py")
    f = verdict(tmp_path, "params_in_module.py", python)
    assert f.code == "TW400" and f.data["parameter"] == "model.stiffness"
    assert f.location.path == str(tmp_path / "params_model.py")
    seeded = verdict(tmp_path, "seeded_backward.py", python)
    assert seeded.code == "TW400" and seeded.data["parameter"] == "x"  # `y.grad.fill_` is a seed, not a parameter


def test_a_harness_survives_an_edit_above_the_parameter_and_says_when_it_is_stale(tmp_path, python):
    script = tmp_path / "seeded_backward.py"
    shutil.copy(PROGRAMS / "seeded_backward.py", script)
    harness = generate(str(script), python)
    text = script.read_text()
    script.write_text("# one\n# two\n# three\n" + text)
    result = asyncio.run(run_probe(RunRequest(script=harness, python=python)))
    lines = sorted(f.location.line for f in result.findings if f.code == "TW400")
    alloc = 1 + next(i for i, line in enumerate(script.read_text().splitlines()) if line.startswith("x = wp.array"))
    back = 1 + next(i for i, line in enumerate(script.read_text().splitlines()) if "tape.backward()" in line)
    assert lines == [alloc]
    [param] = [f for f in result.findings if f.code == "TW400"]
    assert back in [r.location.line for r in param.related]
    script.write_text(script.read_text().replace("x = wp.array", "xs = wp.array").replace("inputs=[x]", "inputs=[xs]")
                      .replace("x.grad", "xs.grad"))
    stale = asyncio.run(run_probe(RunRequest(script=harness, python=python)))
    [f] = stale.findings
    assert f.code == "TW406" and "stale" in f.message and "tapewatch harness" in f.message
