"""Reports complete: SARIF rules with helpUri, the tool's informationUri, --baseline as SARIF
baselineState and in JSON; a folder run runs an FD harness once, with its script."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tapewatch import codes

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
ENV = dict(os.environ, PYTHONPATH=str(ROOT / "server"))


def tapewatch(*args, cwd):
    return subprocess.run([sys.executable, "-m", "tapewatch.cli", *map(str, args)], cwd=str(cwd), env=ENV,
                          capture_output=True, text=True, timeout=300)


def test_every_rule_has_a_help_uri_and_the_tool_its_information_uri(tmp_path):
    shutil.copy(EXAMPLES / "copy_overwrite.py", tmp_path / "bug.py")
    (tmp_path / "plot.py").write_text("print('no tape')\n")  # TW912: a TW9xx rule too
    sarif = json.loads(tapewatch("check", "bug.py", "plot.py", "-q", "--no-evidence", "--format", "sarif",
                                 cwd=tmp_path).stdout)
    driver = sarif["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == codes.HOMEPAGE and driver["informationUri"].startswith("https://")
    rules = {r["id"]: r for r in driver["rules"]}
    assert {"TW102", "TW912"} <= set(rules)
    prefix = codes.HOMEPAGE + "/blob/main/"
    for code, rule in rules.items():
        assert rule["helpUri"] == prefix + "docs/diagnostics/%s.md" % code
        assert (ROOT / rule["helpUri"][len(prefix):]).is_file()  # the page is in the repository at that path
    lint = json.loads(tapewatch("lint", "--format", "sarif", ROOT / "examples" / "gallery", cwd=tmp_path).stdout)
    assert all(r["helpUri"].startswith(prefix) for r in lint["runs"][0]["tool"]["driver"]["rules"])
    assert codes.doc_url("TW999") == prefix + "docs/diagnostics/README.md"  # an unknown code: the catalogue


def test_baseline_results_carry_their_state_in_sarif_and_json(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    script = tmp_path / "bug.py"
    buggy = (EXAMPLES / "missing_requires_grad.py").read_text()
    fixed = buggy.replace("forces = wp.zeros(N, dtype=float)", "forces = wp.zeros(N, dtype=float, requires_grad=True)")
    assert fixed != buggy
    run = ["check", "bug.py", "-q", "--no-check-launches", "--no-harness"]

    script.write_text(buggy)
    assert tapewatch(*run, cwd=tmp_path).returncode == 1
    [with_bug] = (tmp_path / ".tapewatch" / "runs").glob("bug-*.json")

    same = json.loads(tapewatch(*run, "--no-evidence", "--format", "sarif", "--baseline", with_bug, cwd=tmp_path).stdout)
    assert [(r["ruleId"], r["baselineState"]) for r in same["runs"][0]["results"]] == [("TW201", "unchanged")]

    script.write_text(fixed)
    gone = tapewatch(*run, "--format", "sarif", "--baseline", with_bug, cwd=tmp_path)
    assert gone.returncode == 0
    [absent] = json.loads(gone.stdout)["runs"][0]["results"]
    assert absent["ruleId"] == "TW201" and absent["baselineState"] == "absent"
    assert absent["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "bug.py"
    [clean] = sorted(set((tmp_path / ".tapewatch" / "runs").glob("bug-*.json")) - {with_bug})

    script.write_text(buggy)
    new = tapewatch(*run, "--no-evidence", "--format", "json", "--baseline", clean, cwd=tmp_path)
    assert new.returncode == 1
    doc = json.loads(new.stdout)
    assert [(f["code"], f["baseline_state"]) for f in doc["findings"]] == [("TW201", "new")]
    assert doc["baseline"]["new"] == 1 and doc["baseline"]["unchanged"] == 0 and doc["baseline"]["absent"] == []
    assert doc["baseline"]["file"] == str(clean)
    back = json.loads(tapewatch(*run, "--no-evidence", "--format", "json", "--baseline", with_bug,
                                cwd=tmp_path).stdout)
    assert [f["baseline_state"] for f in back["findings"]] == ["unchanged"]


def test_a_folder_run_runs_an_fd_harness_once_with_its_script(tmp_path):
    folder = tmp_path / "repros"
    folder.mkdir()
    shutil.copy(EXAMPLES / "missing_requires_grad.py", folder / "bug.py")
    subprocess.run([sys.executable, "-m", "tapewatch.cli", "harness", str(folder / "bug.py")], env=ENV, check=True,
                   capture_output=True, timeout=300)
    assert (folder / "bug_fdcheck.py").is_file()
    proc = tapewatch("check", folder, "-q", "--no-check-launches", "--no-evidence", "--format", "json", cwd=tmp_path)
    doc = json.loads(proc.stdout)
    assert "runs" not in doc, "the harness ran as a second script"
    assert sorted(f["code"] for f in doc["findings"]) == ["TW201", "TW401"]
    assert proc.stderr.count("tapewatch: running ") == 1 and "FD check with bug_fdcheck.py" in proc.stderr
    text = tapewatch("check", folder, "-q", "--no-check-launches", "--no-evidence", cwd=tmp_path).stdout
    assert "scripts:" not in text and text.count("TW401") == 1
    # Without its script, a harness runs alone; with --no-harness, not at all.
    os.rename(folder / "bug.py", tmp_path / "bug.py")
    alone = tapewatch("check", folder, "-q", "--no-evidence", "--format", "json", "--no-harness", cwd=tmp_path)
    assert alone.returncode == 2 and "skipped" in alone.stderr and "an FD harness (--no-harness)" in alone.stderr


def test_a_generated_harness_never_sends_users_to_pypi(tmp_path):
    """Run with a Python that cannot import Tapewatch, the harness says how to install this one (its source
    folder: there is no PyPI release), never `pip install tapewatch`."""
    shutil.copy(EXAMPLES / "missing_requires_grad.py", tmp_path / "bug.py")
    subprocess.run([sys.executable, "-m", "tapewatch.cli", "harness", str(tmp_path / "bug.py")], env=ENV, check=True,
                   capture_output=True, timeout=300)
    harness = tmp_path / "bug_fdcheck.py"
    text = harness.read_text()
    assert "pip install tapewatch" not in text
    harness.write_text(text.replace("_HERE = ", "_HERE = '/nonexistent'  # ", 1))
    proc = subprocess.run([sys.executable, "-S", str(harness)], capture_output=True, text=True, timeout=60,
                          cwd=str(tmp_path), env=dict(os.environ, PYTHONPATH=""))
    assert proc.returncode == 1
    assert "-m pip install %s` (its source folder; Tapewatch is not on PyPI)" % ROOT in proc.stderr, proc.stderr
