"""The pytest plugin on real Warp tests, each session in a pytest of its own (pytester, subprocess).

The example project's kernels live in one module (``kernels.py``) shared by
every session, so Warp builds them once per mode (tracked, untracked) for the
whole file (the kernel cache is the test session's, see tests/conftest.py).
"""

from __future__ import annotations

import json
import textwrap

import pytest

pytest_plugins = ["pytester"]

KERNELS = '''
import warp as wp


@wp.kernel
def square(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * x[i]


@wp.kernel
def scale(y: wp.array(dtype=float), z: wp.array(dtype=float)):
    i = wp.tid()
    z[i] = 0.5 * y[i]


@wp.kernel
def total(z: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, z[i])


def arrays():
    x = wp.array([1.0, 2.0, 3.0], dtype=float, requires_grad=True, device="cpu")
    y = wp.zeros(3, dtype=float, requires_grad=True, device="cpu")
    loss = wp.zeros(1, dtype=float, requires_grad=True, device="cpu")
    return x, y, loss
'''

TESTS = '''
import numpy as np
import pytest
import warp as wp

from kernels import arrays, scale, square, total


def record(x, y, loss):
    tape = wp.Tape()
    with tape:
        wp.launch(square, dim=3, inputs=[x], outputs=[y], device="cpu")
        wp.launch(scale, dim=3, inputs=[y], outputs=[x], device="cpu")  # overwrites x, which square read
        wp.launch(total, dim=3, inputs=[y], outputs=[loss], device="cpu")
    return tape


def test_overwrite():
    x, y, loss = arrays()
    record(x, y, loss).backward(loss)


def test_overwrite_again():
    x, y, loss = arrays()
    record(x, y, loss).backward(loss)


@pytest.fixture
def taped():
    x, y, loss = arrays()
    tape = wp.Tape()
    with tape:
        wp.launch(square, dim=3, inputs=[x], outputs=[y], device="cpu")
        wp.launch(square, dim=3, inputs=[y], outputs=[x], device="cpu")  # in the fixture
        wp.launch(total, dim=3, inputs=[y], outputs=[loss], device="cpu")
    return tape, loss


def test_overwrite_in_fixture(taped):
    tape, loss = taped
    tape.backward(loss)


def test_correct():
    x, y, loss = arrays()
    tape = wp.Tape()
    with tape:
        wp.launch(square, dim=3, inputs=[x], outputs=[y], device="cpu")
        wp.launch(total, dim=3, inputs=[y], outputs=[loss], device="cpu")
    tape.backward(loss)
    assert np.allclose(x.grad.numpy(), [2.0, 4.0, 6.0])


def test_harmless_overwrite():
    x, y, loss = arrays()
    z = wp.zeros(3, dtype=float, requires_grad=True, device="cpu")
    tape = wp.Tape()
    with tape:
        wp.launch(scale, dim=3, inputs=[y], outputs=[z], device="cpu")
        wp.launch(square, dim=3, inputs=[x], outputs=[y], device="cpu")  # scale is linear in y
        wp.launch(total, dim=3, inputs=[z], outputs=[loss], device="cpu")
    tape.backward(loss)
'''

BUGGY = ["test_overwrite", "test_overwrite_again", "test_overwrite_in_fixture"]
QUIET = ["test_correct", "test_harmless_overwrite"]


def line_of(text: str, source: str = TESTS) -> int:
    """The line of `text` in the file pytester writes (it strips the leading blank lines)."""
    return next(n for n, line in enumerate(textwrap.dedent(source).strip().splitlines(), start=1) if text in line)


OVERWRITE = line_of("# overwrites x")
IN_FIXTURE = line_of("# in the fixture")
HARMLESS = line_of("# scale is linear in y")
MESSAGE = "`x` (argument `z` of `scale`) is overwritten by this launch, but `square` launched at line %d read it" \
    % (OVERWRITE - 1)


@pytest.fixture
def project(pytester):
    pytester.makepyfile(kernels=KERNELS, test_gradients=TESTS)
    return pytester


def run(pytester, *args):
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args, timeout=180)


def outcome_of(result, name: str) -> str:
    for line in result.outlines:
        if line.startswith("test_gradients.py::%s " % name):
            return line.split()[1]
    raise AssertionError("%s not in the output:\n%s" % (name, result.stdout.str()))


def test_fail_mode_fails_each_test_with_its_finding_and_writes_the_json_report(project):
    result = run(project, "--tapewatch", "-v", "--tapewatch-report", "out/report.json")
    result.assert_outcomes(failed=3, passed=2)
    assert [outcome_of(result, name) for name in BUGGY + QUIET] == ["FAILED"] * 3 + ["PASSED"] * 2
    out = result.stdout.str()
    # The failure message is the finding's text, at the launch that overwrote the array.
    result.stdout.fnmatch_lines([
        "*_ test_overwrite _*",
        "tapewatch found TW101 at test_gradients.py:%d:*" % OVERWRITE,
        "test_gradients.py:%d:*: warning TW101: %s*" % (OVERWRITE, MESSAGE),
        "    test_gradients.py:%d:*: note: `square` read `x` here*" % (OVERWRITE - 1),
    ])
    # Per test: the second test through the same helper fails too; a fixture's finding fails its test.
    # (Counted in the failure sections: under CI pytest also prints the whole message in its summary.)
    assert sum(line.startswith("tapewatch found TW101 at test_gradients.py:%d:" % OVERWRITE)
               for line in result.outlines) == 2
    assert "tapewatch found TW101 at test_gradients.py:%d:" % IN_FIXTURE in out
    assert "ERROR" not in out
    # Information (an overwrite the gradient does not depend on) never fails a test.
    assert "test_gradients.py:%d" % HARMLESS not in out
    assert "tapewatch (fail mode): 3 gradient findings in 3 tests, 1 information (in the report)" in out

    report = json.loads((project.path / "out" / "report.json").read_text())
    assert report["status"] == "findings" and report["exit_code"] == 1 and report["warp_version"]
    assert report["device"] == "cpu" and not report["incomplete"]
    by_line = {f["line"]: f for f in report["findings"]}
    assert sorted(by_line) == sorted([OVERWRITE, IN_FIXTURE, HARMLESS])
    assert by_line[OVERWRITE]["code"] == "TW101" and by_line[OVERWRITE]["severity"] == "warning"
    assert by_line[OVERWRITE]["count"] == 2 and by_line[OVERWRITE]["data"]["tests"] == [
        "test_gradients.py::test_overwrite", "test_gradients.py::test_overwrite_again"]
    assert by_line[HARMLESS]["severity"] == "information"
    assert by_line[IN_FIXTURE]["data"]["tests"] == ["test_gradients.py::test_overwrite_in_fixture"]
    assert report["pytest"]["mode"] == "fail"
    assert set(report["pytest"]["tests_with_findings"]) == {"test_gradients.py::" + n for n in BUGGY} | {
        "test_gradients.py::test_harmless_overwrite"}


def test_warn_mode_passes_with_warnings_and_writes_sarif(project):
    result = run(project, "--tapewatch=warn", "--tapewatch-report=out/report.sarif")
    result.assert_outcomes(passed=5, warnings=3)
    result.stdout.fnmatch_lines([
        "*warnings summary*",
        "test_gradients.py::test_overwrite",
        "*test_gradients.py:%d: TapewatchWarning: TW101: %s*" % (OVERWRITE, MESSAGE),
    ])
    out = result.stdout.str()
    assert "FAILED" not in out and "tapewatch found" not in out
    assert "tapewatch (warn mode): 3 gradient findings in 3 tests (reported as warnings)" in out

    sarif = json.loads((project.path / "out" / "report.sarif").read_text())
    [run_] = sarif["runs"]
    assert sarif["version"] == "2.1.0" and run_["tool"]["driver"]["name"] == "tapewatch"
    levels = sorted((r["locations"][0]["physicalLocation"]["region"]["startLine"], r["level"])
                    for r in run_["results"])
    assert levels == sorted([(OVERWRITE, "warning"), (IN_FIXTURE, "warning"), (HARMLESS, "note")])
    assert run_["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "test_gradients.py"


def test_off_by_default_the_buggy_tests_pass(project):
    result = run(project)
    result.assert_outcomes(passed=5)
    out = result.stdout.str()
    assert "TW101" not in out and "tapewatch (" not in out and "TapewatchWarning" not in out


def test_off_the_plugin_imports_nothing(pytester):
    pytester.makepyfile(test_plain='''
        import sys

        def test_nothing_loaded():
            assert "warp" not in sys.modules
            assert not [m for m in sys.modules if m.startswith(("tapewatch.probe", "tapewatch.pytest_plugin."))]
    ''')
    run(pytester).assert_outcomes(passed=1)
    result = run(pytester, "--tapewatch-report", "report.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--tapewatch-report needs --tapewatch" in result.stderr.str()


def test_p_tapewatch_turns_it_on_without_autoloading(project, monkeypatch):
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    result = run(project, "-p", "tapewatch", "test_gradients.py")
    result.assert_outcomes(failed=3, passed=2)


@pytest.mark.internal_error
def test_an_internal_error_is_a_visible_warning(pytester):
    pytester.makepyfile(kernels=KERNELS, test_internal='''
        import warp as wp

        from kernels import arrays, square, total
        from tapewatch.probe.core.tracker import Tracker


        def test_probe_breaks(monkeypatch):
            def broken(*args, **kwargs):
                raise RuntimeError("provoked")

            monkeypatch.setattr(Tracker, "on_launch", broken)
            x, y, loss = arrays()
            tape = wp.Tape()
            with tape:
                wp.launch(square, dim=3, inputs=[x], outputs=[y], device="cpu")
                wp.launch(total, dim=3, inputs=[y], outputs=[loss], device="cpu")
            tape.backward(loss)
    ''')
    result = run(pytester, "--tapewatch", "--tapewatch-report", "report.json")
    result.assert_outcomes(passed=1, warnings=1)
    assert result.ret == 2  # could not verify: as `tapewatch check` says it
    result.stdout.fnmatch_lines([
        "*TapewatchInternalError: TW910: Internal error in Tapewatch while tracking a taped launch "
        "(RuntimeError: provoked)*",
        "*test_internal.py::test_probe_breaks: *TW910*",
        "tapewatch: results may be incomplete*",
    ])
    assert json.loads((pytester.path / "report.json").read_text())["incomplete"] is True


def test_under_xdist_the_controller_reports_what_the_workers_found(project):
    result = run(project, "-n", "1", "--tapewatch", "--tapewatch-report", "report.json")
    result.assert_outcomes(failed=3, passed=2)
    result.stdout.fnmatch_lines(["*tapewatch (fail mode): 3 gradient findings in 3 tests*; Warp * on cpu"])
    report = json.loads((project.path / "report.json").read_text())
    assert sorted(f["line"] for f in report["findings"]) == sorted([OVERWRITE, IN_FIXTURE, HARMLESS])
    assert report["device"] == "cpu"


def test_a_session_that_differentiated_no_tape_is_not_verified(pytester):
    pytester.makepyfile(test_plain='''
        import warp as wp


        def test_no_gradients():
            assert wp.zeros(3, dtype=float, device="cpu").numpy().sum() == 0.0
    ''')
    result = run(pytester, "--tapewatch", "--tapewatch-report", "report.json")
    result.assert_outcomes(passed=1)
    assert result.ret == 2
    result.stdout.fnmatch_lines(["tapewatch: no test differentiated a wp.Tape: nothing was verified (TW912); "
                                 "exit status 2 (could not verify)"])
    report = json.loads((pytester.path / "report.json").read_text())
    assert report["status"] == "failed" and [f["code"] for f in report["findings"]] == ["TW912"]
    assert run(pytester).ret == 0  # off: the plugin says nothing


def test_the_projects_tool_tapewatch_table_selects_the_codes(project):
    project.makefile(".toml", pyproject="[tool.tapewatch]\nignore = \"TW101\"\n")
    result = run(project, "--tapewatch")
    result.assert_outcomes(passed=5)
    assert result.ret == 0
    project.makefile(".toml", pyproject="[tool.tapewatch]\nignores = \"TW101\"\n")
    bad = run(project, "--tapewatch")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    assert "unknown key `ignores` (did you mean `ignore`?)" in bad.stderr.str()


@pytest.mark.parametrize("how", ["bin/pytest", "python -m pytest"])
def test_the_test_runners_frames_are_never_related_locations(project, how):
    """A project with its virtual environment inside (`.venv/`): the call chains of a finding end at the
    test's own frames, never at `.venv/bin/pytest` or pytest's modules (in the report, the failure text)."""
    import os
    import subprocess
    import sys

    venv = project.path / ".venv"
    venv.symlink_to(sys.prefix, target_is_directory=True)
    command = [str(venv / "bin" / "pytest")] if how == "bin/pytest" else \
        [str(venv / "bin" / os.path.basename(sys.executable)), "-m", "pytest"]
    proc = subprocess.run(command + ["-p", "no:cacheprovider", "--tapewatch", "--tapewatch-report", "r.sarif",
                                     "test_gradients.py::test_overwrite"],
                          cwd=str(project.path), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    notes = [line for line in proc.stdout.splitlines() if ": note: " in line]
    assert notes and all(line.strip().startswith(("test_gradients.py:", "kernels.py:")) for line in notes), notes
    sarif = json.loads((project.path / "r.sarif").read_text())
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"]
            for r in sarif["runs"][0]["results"] for loc in r.get("relatedLocations", [])}
    assert uris and uris <= {"test_gradients.py", "kernels.py"}, uris
