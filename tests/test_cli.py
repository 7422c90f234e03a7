"""The `tapewatch check` command as a user runs it: formats and exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import EXAMPLES, ROOT, markers

ENV = dict(os.environ, PYTHONPATH=str(ROOT / "server"))


def check(*args, cwd=ROOT):
    proc = subprocess.run([sys.executable, "-m", "tapewatch.cli", "check", *map(str, args)],
                          capture_output=True, text=True, env=ENV, cwd=cwd, timeout=300)
    return proc


def test_text_is_compiler_style_with_related_notes():
    proc = check(EXAMPLES / "copy_overwrite.py", "-q")
    assert proc.returncode == 1
    line = markers(EXAMPLES / "copy_overwrite.py")["expect:TW102"][0]
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("examples/copy_overwrite.py:%d:5: warning TW102: `wp.copy` overwrites `x_prev`" % line)
    assert lines[1].startswith("    examples/copy_overwrite.py:%d:5: note: `damp` read `x_prev` here" % (line - 1))
    summary = lines[-1]
    assert summary.startswith("tapewatch: copy_overwrite.py on cpu with Warp ")
    assert "1 warning" in summary and "script exit status 0" in summary


def test_json_has_the_documented_fields():
    proc = check(EXAMPLES / "zero_read_array.py", "-q", "--format", "json")
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)  # stdout holds the report only
    assert doc["device"] == "cpu" and doc["warp_version"] and doc["seconds"] > 0
    [f] = doc["findings"]
    assert set(f) >= {"code", "severity", "message", "path", "line", "column", "related", "count"}
    assert f["code"] == "TW103" and f["line"] == markers(EXAMPLES / "zero_read_array.py")["expect:TW103"][0]
    assert all({"path", "line", "message"} <= set(r) for r in f["related"])


def test_sarif_2_1_0():
    proc = check(EXAMPLES / "intra_kernel.py", "-q", "--format", "sarif")
    doc = json.loads(proc.stdout)
    assert doc["version"] == "2.1.0"
    run = doc["runs"][0]
    [rule] = run["tool"]["driver"]["rules"]
    assert rule["id"] == "TW104" and "## What it does" in rule["help"]["markdown"]
    [res] = run["results"]
    region = res["locations"][0]["physicalLocation"]["region"]
    assert res["ruleId"] == "TW104" and region["startLine"] == markers(EXAMPLES / "intra_kernel.py")["expect:TW104"][0]
    assert res["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "examples/intra_kernel.py", "uriBaseId": "SRCROOT"}
    assert res["relatedLocations"]


def test_exit_codes(tmp_path):
    assert check(EXAMPLES / "correct_fresh_arrays.py", "-q").returncode == 0
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n")
    proc = check(broken)
    assert proc.returncode == 2 and "TW902" in proc.stdout
    assert check(tmp_path / "missing.py").returncode == 2


def test_script_arguments_follow_double_dash(tmp_path):
    script = tmp_path / "args.py"
    script.write_text("import sys\nprint('ARGS', sys.argv[1:])\n")
    proc = check(script, "--format", "json", "--", "-q", "--device", "x")
    assert "ARGS ['-q', '--device', 'x']" in proc.stderr  # the script's output goes to stderr
    doc = json.loads(proc.stdout)
    assert doc["device"] == "cpu"
    # It records no tape: nothing was verified (TW912), never "clean".
    assert proc.returncode == 2 and doc["status"] == "failed" and [f["code"] for f in doc["findings"]] == ["TW912"]


def test_several_scripts_and_folders_in_parallel(tmp_path):
    import shutil

    folder = tmp_path / "repros"
    (folder / "nested").mkdir(parents=True)
    shutil.copy(EXAMPLES / "copy_overwrite.py", folder / "copy_overwrite.py")
    shutil.copy(EXAMPLES / "correct_fresh_arrays.py", folder / "nested" / "correct_fresh_arrays.py")
    (folder / "_helper.py").write_text("import warp as wp\ntape = wp.Tape()\ntape.backward()\n")  # a helper: skipped
    (folder / "notes.py").write_text("print('no tape here')\n")  # records no tape: skipped
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n")
    proc = check(folder, broken, "--jobs", "2", "--format", "json")
    doc = json.loads(proc.stdout)
    runs = {os.path.basename(r["script"]): r for r in doc["runs"]}
    assert sorted(runs) == ["broken.py", "copy_overwrite.py", "correct_fresh_arrays.py"]
    assert [f["code"] for f in runs["copy_overwrite.py"]["findings"]] == ["TW102"]
    assert runs["correct_fresh_arrays.py"]["status"] == "ok" and runs["broken.py"]["status"] == "failed"
    assert doc["status"] == "failed" and proc.returncode == 2  # the worst of the runs
    # Each script's output is prefixed with its name.
    assert any(line.startswith("[copy_overwrite.py] ") for line in proc.stderr.splitlines())

    text = check(folder, "-q")
    assert text.returncode == 1
    assert text.stdout.splitlines()[-1] == "tapewatch: 2 scripts: 1 with findings, 0 failed, 1 clean"
    sarif = json.loads(check(folder, "-q", "--format", "sarif").stdout)
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["TW102"]
    assert check(folder, "--", "x").returncode == 2  # script arguments need one script
    assert check(tmp_path / "nowhere").returncode == 2


def test_check_runs_the_scripts_fd_harness_like_the_editor(tmp_path):
    import shutil

    script = tmp_path / "bug.py"
    shutil.copy(EXAMPLES / "missing_requires_grad.py", script)
    subprocess.run([sys.executable, "-m", "tapewatch.cli", "harness", str(script)], env=ENV, check=True,
                   capture_output=True, timeout=300)
    with_fd = check(script, "-q", "--format", "json", "--no-check-launches", "--no-evidence")
    codes = sorted(f["code"] for f in json.loads(with_fd.stdout)["findings"])
    assert codes == ["TW201", "TW401"] and "FD check with bug_fdcheck.py" in with_fd.stderr
    without = check(script, "-q", "--format", "json", "--no-check-launches", "--no-evidence", "--no-harness")
    assert [f["code"] for f in json.loads(without.stdout)["findings"]] == ["TW201"]


def test_a_relative_python_means_the_callers_folder(tmp_path):
    """``--python .venv/bin/python`` is found from where the command runs, not from the script's folder."""
    (tmp_path / "env").symlink_to(sys.prefix, target_is_directory=True)  # this virtual environment
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    script = scripts / "plain.py"
    script.write_text(TAPED)
    python = os.path.join("env", os.path.relpath(sys.executable, sys.prefix))
    proc = check(script, "--python", python, "--format", "json", "--no-check-launches", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(proc.stdout)["status"] == "ok"


# A correct program that records and differentiates a tape: verified clean.
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
print('ran')
"""


NO_BACKWARD = '''import warp as wp


@wp.kernel
def square(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * x[i]


@wp.kernel(enable_backward=False)
def peak(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    wp.atomic_max(out, 0, x[wp.tid()])


x = wp.array([1.0, 2.0], dtype=float, requires_grad=True)
y = wp.zeros(2, dtype=float, requires_grad=True)
out = wp.zeros(1, dtype=float)
tape = wp.Tape()
with tape:
    wp.launch(square, dim=2, inputs=[x], outputs=[y])
    {taped}
tape.backward(grads={{y: wp.ones(2, dtype=float)}})
wp.launch(peak, dim=2, inputs=[y], outputs=[out])
'''


def test_a_lint_on_a_decorator_follows_where_the_run_launched_its_kernel(tmp_path):
    """TW305 sits on ``@wp.kernel(enable_backward=False)``: information when the run launched the kernel
    only outside differentiated tapes; folded into the measured TW405 when a differentiated tape holds it
    (a warning when what it writes reaches backward()'s seed, information when it only fills a display)."""
    found = {}
    for name, taped in (("after", "pass"), ("taped", "wp.launch(peak, dim=2, inputs=[x], outputs=[y])"),
                        ("display", "wp.launch(peak, dim=2, inputs=[x], outputs=[out])")):
        script = tmp_path / ("%s.py" % name)
        script.write_text(NO_BACKWARD.format(taped=taped))
        doc = json.loads(check(script, "-q", "--format", "json", "--no-evidence").stdout)
        found[name] = [(f["code"], f["line"], f["severity"], f["message"]) for f in doc["findings"]]
    [(code, line, severity, message)] = found["after"]
    assert (code, line, severity) == ("TW305", 10, "information") and "Not confirmed" in message
    assert [f[:3] for f in found["taped"]] == [("TW405", 10, "warning")]
    [(code, line, severity, message)] = found["display"]
    assert (code, line, severity) == ("TW405", 10, "information") and "Harmless here" in message
