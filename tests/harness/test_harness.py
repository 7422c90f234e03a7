"""The generated FD harness, run unedited on the examples, in both forms:
``gradcheck`` (Warp with restore_inputs, the newest) and ``central``
(Warp 1.14)."""

from __future__ import annotations

import asyncio
import shutil
import sys

import pytest

from conftest import EXAMPLES, markers
from tapewatch.harness.discover import discover
from tapewatch.harness.generate import generate, harness_form
from tapewatch.spawn import find_harness
from tapewatch.runner import RunRequest, run_probe


def harness_result(tmp_path, example, python):
    script = tmp_path / example
    shutil.copy(EXAMPLES / example, script)
    path = generate(str(script), python)
    result = asyncio.run(run_probe(RunRequest(script=path, python=python)))
    return script, path, result


def by_line(result):
    return {(f.code, f.location.line): f for f in result.findings}


@pytest.mark.parametrize("example, code", [
    ("correct_fresh_arrays.py", "TW400"),
    ("stochastic_forward.py", "TW400"),
    ("duplicate_retain_grad.py", "TW402"),
    ("missing_requires_grad.py", "TW401"),
    ("tape_per_window.py", "TW401"),
])
def test_fd_examples(tmp_path, python, example, code):
    script, path, result = harness_result(tmp_path, example, python)
    m = markers(EXAMPLES / example)
    expected_form = "gradcheck" if harness_form(python) == "gradcheck" else "central"
    assert result.features.get("harness_form") == expected_form
    param_line = m["expect:" + code][0] if "expect:" + code in m else None
    codes = sorted((f.code, f.location.line) for f in result.findings)
    if param_line is None:  # correct_fresh_arrays has no markers: the parameter is `velocity`
        assert {c for c, _ in codes} == {code}
        return
    assert codes == [(code, param_line)]  # one verdict, one finding: the backward call is related
    f = by_line(result)[(code, param_line)]
    assert f.location.path == str(script)
    assert [r.location.line for r in f.related] == m["backward"]
    data = f.data
    if example == "duplicate_retain_grad.py":
        assert data["ratio"] == pytest.approx(2.0, rel=0.02) and "2× finite differences" in f.message
    if example == "missing_requires_grad.py":
        assert "AD 0 vs FD" in f.message and data["ratio"] == 0.0
        # Every sampled element with its numbers, for the picture of the errors.
        assert len(data["samples"]) == data["sampled"]
        assert all(s["ad"] == 0.0 and s["fd"] != 0.0 and not s["ok"] for s in data["samples"])
    if example == "tape_per_window.py":
        assert data["backward_calls"] == 3 and "truncation" in f.message
    if code == "TW400":
        assert data["passed"] and data["max_abs_error"] < 1e-3


def test_a_harness_written_before_the_fd_check_moved_still_runs(tmp_path):
    """Harness files import ``tapewatch.harness.fdcheck`` from before it moved to ``probe/fd``."""
    script = tmp_path / "missing_requires_grad.py"
    shutil.copy(EXAMPLES / "missing_requires_grad.py", script)
    path = generate(str(script), "python3")
    text = open(path).read()
    assert "from tapewatch.probe.fd import fdcheck" in text
    with open(path, "w") as f:
        f.write(text.replace("from tapewatch.probe.fd import fdcheck", "from tapewatch.harness import fdcheck"))
    result = asyncio.run(run_probe(RunRequest(script=path, python=sys.executable)))
    param_line = markers(EXAMPLES / "missing_requires_grad.py")["expect:TW401"][0]
    assert sorted((f.code, f.location.line) for f in result.findings) == [("TW401", param_line)]


def test_writes_next_to_the_script_and_never_overwrites(tmp_path):
    script = tmp_path / "copy_overwrite.py"
    shutil.copy(EXAMPLES / "copy_overwrite.py", script)
    first = generate(str(script), "python3", form="central")
    second = generate(str(script), "python3", form="central")
    assert first.endswith("copy_overwrite_fdcheck.py") and second.endswith("copy_overwrite_fdcheck_2.py")
    assert find_harness(str(script)) in (first, second)
    text = open(first).read()
    assert "fdcheck.Parameter('x', line=25)" in text and "LOSS = fdcheck.Loss('out', backward_lines=[35])" in text
    compile(text, first, "exec")


def test_structure_without_a_way_in_fails_with_what_to_fill_in(tmp_path, python):
    script = tmp_path / "no_backward.py"
    script.write_text("import warp as wp\nx = wp.zeros(4, requires_grad=True)\nprint(x.grad)\n")
    path = generate(str(script), python)
    assert "TODO" in open(path).read()
    result = asyncio.run(run_probe(RunRequest(script=path, python=python)))
    [f] = result.findings
    assert f.code == "TW406" and "no `tape.backward(...)` call was found" in f.message
    assert result.tool_failed is False and f.severity == "error"


def test_discover_follows_optimizers_and_attribute_allocations():
    source = (
        "import warp as wp\n"
        "class Model:\n"
        "    def __init__(self):\n"
        "        self.weights = wp.zeros(3, requires_grad=True)\n"
        "model = Model()\n"
        "loss = wp.zeros(1, requires_grad=True)\n"
        "opt = wp.optim.SGD([model.weights], lr=0.1)\n"
        "tape = wp.Tape()\n"
        "tape.backward(loss=loss)\n"
    )
    plan = discover("m.py", source)
    assert [(p.name, p.line) for p in plan.params] == [("model.weights", 4)]
    assert (plan.loss, plan.backward_lines) == ("loss", [9])


@pytest.mark.parametrize("example, detail", [
    ("where_nan.py", "not finite: see TW403"),
    ("wrong_custom_adjoint.py", "Worst element"),
    ("backward_disabled.py", "AD 0 vs FD"),
])
def test_fd_mismatch_examples_found_by_the_probe_too(tmp_path, python, example, detail):
    """The examples the probe localizes (TW403-405) fail the end-to-end FD check too, with numbers."""
    script, path, result = harness_result(tmp_path, example, python)
    assert {f.code for f in result.findings} == {"TW401"}
    assert all(detail in f.message and "max abs err" in f.message for f in result.findings)
    lines = {f.location.line for f in result.findings}
    plan = discover(str(script))
    assert lines == {plan.params[0].line}
    assert {r.location.line for f in result.findings for r in f.related} == set(plan.backward_lines)


def test_unpinnable_noise_is_called_out(tmp_path, python):
    """Noise seeded from the clock cannot be replayed: the result says so instead of pretending."""
    script = tmp_path / "clock_noise.py"
    script.write_text((EXAMPLES / "stochastic_forward.py").read_text().replace(
        "rng = np.random.default_rng()  # unseeded on purpose",
        "import time\nrng = np.random.default_rng(time.perf_counter_ns())"))
    path = generate(str(script), python)
    result = asyncio.run(run_probe(RunRequest(script=path, python=python)))
    assert result.findings and all("not reproducible" in f.message for f in result.findings)
    assert all(f.data["noise"] > 0 for f in result.findings)
    # Never a verdict it could not measure: inconclusive, with the remedy.
    assert {f.code for f in result.findings} == {"TW409"}
    assert all("seed every random source" in f.message for f in result.findings)


def test_pinned_noise_is_not_called_out(tmp_path, python):
    script, path, result = harness_result(tmp_path, "stochastic_forward.py", python)
    assert result.findings and not any("not reproducible" in f.message for f in result.findings)
