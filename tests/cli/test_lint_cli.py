"""``tapewatch lint``: files and folders, formats, --select/--ignore, # noqa, [tool.tapewatch], exit status."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

KERNELS = textwrap.dedent('''\
    import warp as wp


    @wp.kernel
    def scale(x: wp.array(dtype=float), s: wp.array(dtype=float)):
        i = wp.tid()
        x[i] *= s[0]


    @wp.kernel
    def compact(x: wp.array(dtype=float), counter: wp.array(dtype=int), out: wp.array(dtype=float)):
        i = wp.tid()
        slot = wp.atomic_add(counter, 0, 1)
        out[slot] = x[i]
    ''')


def lint(*args, cwd):
    return subprocess.run([sys.executable, "-m", "tapewatch.cli", "lint", *args], cwd=str(cwd),
                          capture_output=True, text=True)


@pytest.fixture
def project(tmp_path):
    (tmp_path / "sim").mkdir()
    (tmp_path / "sim" / "kernels.py").write_text(KERNELS)
    (tmp_path / "sim" / "quiet.py").write_text(KERNELS.replace("x[i] *= s[0]", "x[i] *= s[0]  # noqa: TW301"))
    (tmp_path / ".venv" / "lib").mkdir(parents=True)
    (tmp_path / ".venv" / "lib" / "dep.py").write_text(KERNELS)  # never linted
    return tmp_path


def test_folders_formats_and_exit_status(project):
    text = lint("sim", cwd=project)
    assert text.returncode == 1
    assert "sim/kernels.py:7:5: warning TW301" in text.stdout and "sim/kernels.py:13:12: warning TW308" in text.stdout
    assert "quiet.py:7" not in text.stdout  # # noqa: TW301
    assert "tapewatch lint: 2 files, 3 findings" in text.stdout
    data = json.loads(lint("sim", "--format", "json", cwd=project).stdout)
    assert data["files"] == 2 and sorted(f["code"] for f in data["findings"]) == ["TW301", "TW308", "TW308"]
    sarif = json.loads(lint(".", "--format", "sarif", cwd=project).stdout)
    assert len(sarif["runs"][0]["results"]) == 3  # .venv is skipped


def test_select_ignore_and_pyproject(project):
    only = lint("sim", "--select", "TW301", cwd=project)
    assert "TW308" not in only.stdout and "TW301" in only.stdout
    (project / "pyproject.toml").write_text('[tool.tapewatch]\nignore = ["TW308"]\nexclude = ["quiet.py"]\n')
    configured = lint("sim", cwd=project)
    assert "TW308" not in configured.stdout and "1 file," in configured.stdout
    clean = lint("sim", "--ignore", "TW30", cwd=project)
    assert clean.returncode == 0 and "no findings" in clean.stdout


def test_bad_usage_is_status_2(project):
    assert lint("missing.py", cwd=project).returncode == 2
    bad = lint("sim", "--select", "TW999", cwd=project)
    assert bad.returncode == 2 and "unknown code or prefix TW999" in bad.stderr


def test_pre_commit_hook_manifest_runs_the_command(project):
    manifest = (ROOT / ".pre-commit-hooks.yaml").read_text()
    fields = dict(line.strip().lstrip("- ").split(": ", 1) for line in manifest.splitlines()
                  if ": " in line and not line.lstrip().startswith("#"))
    assert fields["id"] == "tapewatch-lint" and fields["entry"] == "tapewatch lint --force-exclude"
    assert fields["language"] == "python" and fields["types"] == "[python]"
    # pre-commit appends the staged file names to the entry:
    staged = lint("--force-exclude", "sim/kernels.py", "sim/quiet.py", cwd=project)
    assert staged.returncode == 1 and "2 files" in staged.stdout
    (project / "pyproject.toml").write_text('[tool.tapewatch]\nextend-exclude = ["quiet.py"]\n')
    staged = lint("--force-exclude", "sim/kernels.py", "sim/quiet.py", cwd=project)
    assert staged.returncode == 1 and "1 file," in staged.stdout  # the excludes apply to the names too
