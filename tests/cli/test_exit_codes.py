"""Honest exit codes: 0 verified clean, 1 findings, 2 could not verify (TW9xx says which).

Each command as a user or a CI job runs it; docs/ci.md's `|| test $? -eq 1` recipe must fail
the job on every "could not verify".
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
ENV = dict(os.environ, PYTHONPATH=str(ROOT / "server"))

TAPED = """import warp as wp


@wp.kernel
def square(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * x[i]


x = wp.array([1.0, 2.0], dtype=float, requires_grad=True)
y = wp.zeros(2, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(square, dim=2, inputs=[x], outputs=[y])
tape.backward(grads={y: wp.ones(2, dtype=float)})
"""

# Mentions Tape( and .backward( (so a folder run picks it), but never records one.
NO_TAPE = """import warp as wp

if __name__ == "not main":
    tape = wp.Tape()
    tape.backward()
print("ran without a tape")
"""

IMPORT_ERROR = "import warp as wp\nimport module_that_is_not_installed\n" + TAPED


def tapewatch(*args, cwd=ROOT, timeout=300):
    return subprocess.run([sys.executable, "-m", "tapewatch.cli", *map(str, args)], capture_output=True, text=True,
                          env=ENV, cwd=str(cwd), timeout=timeout)


def doc(proc) -> dict:
    return json.loads(proc.stdout)


def codes(proc) -> list:
    return [f["code"] for f in doc(proc)["findings"]]


def test_a_verified_clean_script_exits_0(tmp_path):
    (tmp_path / "ok.py").write_text(TAPED)
    proc = tapewatch("check", tmp_path / "ok.py", "--format", "json", "--no-evidence")
    assert proc.returncode == 0 and doc(proc)["status"] == "ok" and codes(proc) == [], proc.stdout + proc.stderr


def test_an_import_error_is_2_not_findings(tmp_path):
    (tmp_path / "imports.py").write_text(IMPORT_ERROR)
    proc = tapewatch("check", tmp_path / "imports.py", "--format", "json", "--no-evidence")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert doc(proc)["status"] == "failed" and "TW901" in codes(proc)
    assert doc(proc)["failure"]["code"] == "TW901" and "module_that_is_not_installed" in doc(proc)["failure"]["message"]


def test_findings_before_an_exception_do_not_make_it_a_findings_run(tmp_path):
    bug = (EXAMPLES / "copy_overwrite.py").read_text() + "\nraise RuntimeError('after the tape')\n"
    (tmp_path / "late.py").write_text(bug)
    proc = tapewatch("check", tmp_path / "late.py", "--format", "json", "--no-evidence", "--no-check-launches")
    assert proc.returncode == 2 and {"TW102", "TW901"} <= set(codes(proc))


def test_a_script_that_records_no_tape_is_not_verified(tmp_path):
    (tmp_path / "plot.py").write_text(NO_TAPE)
    proc = tapewatch("check", tmp_path / "plot.py", "--no-evidence", "-q")
    assert proc.returncode == 2, proc.stdout
    assert "plot.py:1:1: error TW912: The script ran to its end (exit status 0) without recording a launch " \
           "on a wp.Tape" in proc.stdout
    summary = proc.stdout.splitlines()[-1]
    assert "no findings" not in summary and summary.endswith("(script exit status 0); not verified: TW912"), summary


def test_the_worst_of_parallel_runs(tmp_path):
    folder = tmp_path / "repros"
    folder.mkdir()
    (folder / "ok.py").write_text(TAPED)
    shutil.copy(EXAMPLES / "copy_overwrite.py", folder / "bug.py")
    assert tapewatch("check", folder, "-j", "2", "-q", "--no-evidence", "--no-check-launches").returncode == 1
    (folder / "plot.py").write_text(NO_TAPE)
    proc = tapewatch("check", folder, "-j", "2", "-q", "--no-evidence", "--no-check-launches")
    assert proc.returncode == 2
    assert proc.stdout.splitlines()[-1] == "tapewatch: 3 scripts: 1 with findings, 1 failed, 1 clean"


@pytest.mark.internal_error
def test_an_internal_error_is_2_even_when_the_run_found_nothing(tmp_path):
    script = tmp_path / "broken_probe.py"
    script.write_text("from tapewatch.probe.core.tracker import Tracker\n\n\ndef broken(*args, **kwargs):\n"
                      "    raise RuntimeError('provoked')\n\n\nTracker.on_launch = broken\n" + TAPED)
    proc = tapewatch("check", script, "--format", "json", "--no-evidence", "--no-check-launches")
    assert "TW910" in codes(proc) and doc(proc)["incomplete"] is True
    assert proc.returncode == 2


def test_the_ci_recipe_fails_the_job_on_could_not_verify(tmp_path):
    """docs/ci.md: `tapewatch check ... > check.sarif || test $? -eq 1` lets findings through to the
    upload and fails the job on everything else."""
    (tmp_path / "imports.py").write_text(IMPORT_ERROR)
    shutil.copy(EXAMPLES / "copy_overwrite.py", tmp_path / "bug.py")
    recipe = '%s -m tapewatch.cli check --device cpu --format sarif --no-evidence %s > check.sarif || test $? -eq 1'

    def job(script):
        return subprocess.run(["bash", "-c", recipe % (sys.executable, script)], cwd=str(tmp_path), env=ENV,
                              capture_output=True, text=True, timeout=300).returncode

    assert job("bug.py") == 0  # findings: uploaded as alerts
    assert job("imports.py") != 0  # could not verify: the job fails


def test_help_shows_the_exit_codes_and_script_arguments_without_markup():
    top = tapewatch("--help")
    assert top.returncode == 0 and "``" not in top.stdout and "exit status:" in top.stdout
    check = tapewatch("check", "--help").stdout
    assert "tapewatch check [options] SCRIPT... [-- ARGS...]" in check
    assert "0  verified clean" in check and "1  findings" in check and "2  could not verify" in check
    assert "no tape\n     recorded (TW912)" in check
    assert "--device" in tapewatch("bisect", "--help").stdout
    assert "2 could not verify" in tapewatch("lint", "--help").stdout
    assert tapewatch("--version").stdout.startswith("tapewatch ")


def test_timeout_0_is_an_error_and_none_means_no_limit(tmp_path):
    (tmp_path / "ok.py").write_text(TAPED)
    zero = tapewatch("check", tmp_path / "ok.py", "--timeout", "0")
    assert zero.returncode == 2 and "expected seconds greater than 0 (or `none` for no limit), got 0" in zero.stderr
    assert tapewatch("check", tmp_path / "ok.py", "--timeout", "-5").returncode == 2
    unlimited = tapewatch("check", tmp_path / "ok.py", "--timeout", "none", "--no-evidence", "-q")
    assert unlimited.returncode == 0, unlimited.stdout + unlimited.stderr


def test_the_summary_says_why_a_script_did_not_run(tmp_path):
    (tmp_path / "broken.py").write_text("def f(:\n")
    syntax = tapewatch("check", tmp_path / "broken.py", "--no-evidence")
    summary = syntax.stdout.splitlines()[-1]
    assert syntax.returncode == 2
    assert summary.startswith("tapewatch: broken.py: not run: TW902 "), summary
    assert "Warp ?" not in summary and "None" not in summary
    (tmp_path / "ok.py").write_text(TAPED)
    no_python = tapewatch("check", tmp_path / "ok.py", "--python", tmp_path / "no-such-python", "--no-evidence")
    summary = no_python.stdout.splitlines()[-1]
    assert no_python.returncode == 2 and summary.startswith("tapewatch: ok.py: not run: TW908 "), summary


def test_bisect_runs_on_the_device_asked_for(tmp_path):
    script = tmp_path / "late_bug.py"
    shutil.copy(ROOT / "tests" / "harness" / "programs" / "late_bug.py", script)
    proc = tapewatch("bisect", script, "--device", "cuda:97", "--format", "json", timeout=300)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    [finding] = json.loads(proc.stdout)
    assert finding["code"] == "TW406" and "cuda:97" in finding["message"], finding["message"]
