"""``[tool.tapewatch]``: one loader (tapewatch.config) with ruff's semantics, a test per rule.

Most tests go through ``tapewatch lint`` as a user runs it; ``check`` reading the same table is
tested on a real run at the end.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tapewatch import config as twconfig

ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=str(ROOT / "server"))

# TW301 at line 7 (x[i] *= s[0]), TW308 at line 13 (an atomic's result used).
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


def tapewatch(*args, cwd):
    return subprocess.run([sys.executable, "-m", "tapewatch.cli", *map(str, args)], cwd=str(cwd),
                          capture_output=True, text=True, env=ENV, timeout=300)


def codes(proc) -> list:
    return sorted(f["code"] for f in json.loads(proc.stdout)["findings"])


def files(proc, project) -> list:
    return sorted({os.path.relpath(f["path"], str(project)) for f in json.loads(proc.stdout)["findings"]})


@pytest.fixture
def project(tmp_path):
    for rel in ("src/kernels.py", "legacy/old.py", "legacy/deep/older.py", ".venv/lib/dep.py"):
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(KERNELS)
    return tmp_path


def configure(project, body: str) -> None:
    (project / "pyproject.toml").write_text("[project]\nname = 'demo'\n\n[tool.tapewatch]\n" + textwrap.dedent(body))


def lint(project, *args, cwd=None):
    return tapewatch("lint", "--format", "json", *args, cwd=cwd or project)


# ------------------------------------------------------------------ codes

def test_a_string_is_accepted_where_a_list_is_expected(project):
    configure(project, 'ignore = "TW308"\n')
    proc = lint(project, "src")
    assert proc.returncode == 1, proc.stderr
    assert codes(proc) == ["TW301"]
    configure(project, 'ignore = "TW308, TW301"\n')
    assert lint(project, "src").returncode == 0


def test_select_keeps_only_the_codes_or_prefixes_named(project):
    configure(project, 'select = ["TW301"]\n')
    assert codes(lint(project, "src")) == ["TW301"]
    configure(project, 'select = ["TW30"]\n')
    assert codes(lint(project, "src")) == ["TW301", "TW308"]


def test_extend_select_adds_to_select(project):
    configure(project, 'select = ["TW301"]\nextend-select = ["TW308"]\n')
    assert codes(lint(project, "src")) == ["TW301", "TW308"]


def test_extend_ignore_adds_to_ignore(project):
    configure(project, 'ignore = ["TW301"]\nextend-ignore = ["TW308"]\n')
    proc = lint(project, "src")
    assert proc.returncode == 0 and codes(proc) == []


def test_the_most_specific_prefix_wins_and_ignore_wins_a_tie(project):
    configure(project, 'ignore = ["TW3"]\nextend-select = ["TW301"]\n')
    assert codes(lint(project, "src")) == ["TW301"]
    configure(project, 'select = ["TW301"]\nignore = ["TW301"]\n')
    assert codes(lint(project, "src")) == []


def test_the_command_line_select_starts_afresh_and_its_ignore_adds(project):
    configure(project, 'ignore = ["TW301"]\n')
    assert codes(lint(project, "src", "--select", "TW301")) == ["TW301"]  # as ruff's --select
    assert codes(lint(project, "src", "--extend-ignore", "TW308")) == []
    assert codes(lint(project, "src", "--extend-select", "TW301")) == ["TW301", "TW308"]


def test_unknown_codes_are_an_error_naming_the_key(project):
    configure(project, 'ignore = ["TW3O8"]\n')  # the letter O
    proc = lint(project, "src")
    assert proc.returncode == 2
    assert "pyproject.toml: [tool.tapewatch]: `ignore`: unknown code or prefix TW3O8" in proc.stderr


def test_tool_codes_cannot_be_ignored(project):
    configure(project, 'ignore = ["TW911"]\n')
    proc = lint(project, "src")
    assert proc.returncode == 2 and "TW911 cannot be ignored" in proc.stderr
    config = twconfig.Config().with_options(select=["TW301"])
    assert config.enabled("TW911") and config.enabled("TW301") and not config.enabled("TW308")


# ------------------------------------------------------------- validation

def test_an_unknown_key_is_an_error_with_did_you_mean(project):
    configure(project, 'ignores = ["TW308"]\n')
    proc = lint(project, "src")
    assert proc.returncode == 2
    assert "unknown key `ignores` (did you mean `ignore`?)" in proc.stderr, proc.stderr
    assert "pyproject.toml" in proc.stderr and proc.stdout == ""
    configure(project, 'flavour = "x"\n')
    assert "unknown key `flavour`; the keys are select, ignore" in lint(project, "src").stderr


@pytest.mark.parametrize("body, message", [
    ("select = 3\n", "`select` must be a list of strings (or one string), got 3"),
    ("exclude = [1]\n", "`exclude`: expected glob patterns as strings, got 1"),
    ('force-exclude = "yes"\n', '`force-exclude` must be true or false, got "yes"'),
    ("select = [\n", "is not valid TOML"),
])
def test_values_of_the_wrong_type_are_clear_errors(project, body, message):
    configure(project, body)
    proc = lint(project, "src")
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr


def test_a_pyproject_without_the_table_is_passed_over(project):
    configure(project, 'ignore = ["TW308"]\n')
    (project / "src" / "pyproject.toml").write_text("[project]\nname = 'inner'\n")
    assert codes(lint(project, ".", cwd=project / "src")) == ["TW301"]


# ---------------------------------------------------------------- exclude

def test_exclude_patterns_with_a_folder_are_taken_from_the_configurations_folder(project):
    configure(project, 'extend-exclude = ["legacy/*"]\n')
    assert files(lint(project, "."), project) == ["src/kernels.py"]
    # the same from a sub folder and with an absolute path: the pattern is the project's
    sub = lint(project, str(project / "legacy"), cwd=project / "src")
    assert sub.returncode == 0 and json.loads(sub.stdout)["files"] == 0


def test_a_pattern_without_a_slash_matches_a_name_anywhere(project):
    configure(project, 'extend-exclude = ["deep", "old.py"]\n')
    assert files(lint(project, "."), project) == ["src/kernels.py"]


def test_exclude_replaces_the_defaults_and_extend_exclude_adds_to_them(project):
    configure(project, 'extend-exclude = ["legacy"]\n')
    assert files(lint(project, "."), project) == ["src/kernels.py"]  # .venv: a default
    configure(project, 'exclude = ["legacy"]\n')
    assert files(lint(project, "."), project) == [".venv/lib/dep.py", "src/kernels.py"]  # as ruff's exclude


def test_the_command_line_exclude_is_taken_from_the_working_directory(project):
    proc = lint(project, ".", "--extend-exclude", "legacy/*")
    assert files(proc, project) == ["src/kernels.py"]


def test_force_exclude_applies_the_excludes_to_files_named(project):
    configure(project, 'extend-exclude = ["legacy/*"]\n')
    named = lint(project, "legacy/old.py", "src/kernels.py")  # as pre-commit passes staged files
    assert files(named, project) == ["legacy/old.py", "src/kernels.py"]
    assert files(lint(project, "legacy/old.py", "src/kernels.py", "--force-exclude"), project) == ["src/kernels.py"]
    configure(project, 'extend-exclude = ["legacy"]\nforce-exclude = true\n')
    assert files(lint(project, "legacy/deep/older.py", "src/kernels.py"), project) == ["src/kernels.py"]


# ------------------------------------------------------- the other readers

def test_the_editor_gets_the_configuration_or_the_message_to_show(project):
    configure(project, 'ignore = "TW308"\nextend-exclude = ["legacy/*"]\n')
    config, problem = twconfig.for_editor(str(project / "src" / "kernels.py"))
    assert problem is None and not config.enabled("TW308") and config.enabled("TW301")
    assert config.excluded(str(project / "legacy" / "old.py")) and not config.excluded(str(project / "src" / "kernels.py"))
    configure(project, 'ignor = "TW308"\n')
    config, problem = twconfig.for_editor(str(project / "src" / "kernels.py"))
    assert config.enabled("TW308") and "unknown key `ignor` (did you mean `ignore`?)" in problem


COPY_OVERWRITE = ROOT / "examples" / "copy_overwrite.py"


def test_check_reads_the_same_table(project):
    """A code ignored in [tool.tapewatch] does not come back in ``check``: a lint, and a runtime finding."""
    script = project / "src" / "sim.py"
    script.write_text(COPY_OVERWRITE.read_text() + "\n\n" + KERNELS.split("\n", 1)[1])
    run = ["check", "src/sim.py", "-q", "--no-check-launches", "--no-evidence", "--format", "json"]
    before = tapewatch(*run, cwd=project)
    assert {"TW102", "TW301"} <= set(codes(before)), before.stdout + before.stderr
    configure(project, 'ignore = ["TW301", "TW308", "TW102"]\n')
    after = tapewatch(*run, cwd=project)
    assert not {"TW102", "TW301", "TW308"} & set(codes(after)), after.stdout
    configure(project, 'ignore = ["TW3O1"]\n')
    bad = tapewatch(*run, cwd=project)
    assert bad.returncode == 2 and "unknown code or prefix TW3O1" in bad.stderr
