"""Evidence of every run: kept under .tapewatch/runs/, listed by `history`, compared by `--baseline`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def tapewatch(*args, cwd):
    return subprocess.run([sys.executable, "-m", "tapewatch.cli", *args], cwd=str(cwd), capture_output=True,
                          text=True)


def test_a_fix_shows_as_fixed_against_the_previous_run(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    script = tmp_path / "sim" / "bug.py"
    script.parent.mkdir()
    shutil.copy(ROOT / "examples" / "missing_requires_grad.py", script)
    before = tapewatch("check", "sim/bug.py", "-q", "--no-check-launches", cwd=tmp_path)
    assert before.returncode == 1
    [kept] = sorted((tmp_path / ".tapewatch" / "runs").glob("bug-*.json"))
    data = json.loads(kept.read_text())
    assert data["script"] == "sim/bug.py" and data["status"] == "findings" and data["warp_version"]
    assert [f["code"] for f in data["findings"]] == ["TW201"] and data["findings"][0]["path"] == "sim/bug.py"

    script.write_text(script.read_text().replace("forces = wp.zeros(N, dtype=float)",
                                                 "forces = wp.zeros(N, dtype=float, requires_grad=True)"))
    after = tapewatch("check", "sim/bug.py", "-q", "--no-check-launches", "--baseline", str(kept), cwd=tmp_path)
    assert after.returncode == 0
    assert "0 new, 1 fixed, 0 unchanged" in after.stderr and "fixed TW201" in after.stderr

    history = tapewatch("history", "sim/bug.py", "--format", "json", cwd=tmp_path)
    runs = json.loads(history.stdout)
    assert [r["status"] for r in runs] == ["findings", "ok"]
    assert runs[0]["script_hash"] != runs[1]["script_hash"]


def test_a_new_problem_against_a_clean_baseline_fails(tmp_path):
    # The project is tmp_path (a marker above it, a .tapewatch left in /tmp, must not claim the runs).
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    script = tmp_path / "clean.py"
    shutil.copy(ROOT / "examples" / "correct_fresh_arrays.py", script)
    tapewatch("check", "clean.py", "-q", "--no-check-launches", cwd=tmp_path)
    [kept] = sorted((tmp_path / ".tapewatch" / "runs").glob("clean-*.json"))
    shutil.copy(ROOT / "examples" / "pingpong_helper.py", script)  # the same file, now with the bug
    after = tapewatch("check", "clean.py", "-q", "--no-check-launches", "--baseline", str(kept), cwd=tmp_path)
    assert after.returncode == 1 and "2 new" in after.stderr
    assert tapewatch("check", "clean.py", "--baseline", str(tmp_path / "nope.json"), cwd=tmp_path).returncode == 2


def test_runs_kept_within_one_second_are_listed_in_the_order_they_ran(tmp_path):
    """A warm re-run takes under a second: history and "compare with previous" must still see the
    edit's run as the later one, whatever the script hashes in the file names say."""
    import hashlib

    from tapewatch import evidence
    from tapewatch.runner import RunResult

    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    script = tmp_path / "bug.py"

    def digest(text):
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    # An edit whose hash sorts before the first version's: file-name order would put it first.
    first = "x = 0\n"
    second = next(t for t in ("x = %d\n" % n for n in range(1, 100)) if digest(t) < digest(first))
    for text in (first, second):
        script.write_text(text)
        assert evidence.save(RunResult(script=str(script)), root=str(tmp_path))
    runs = evidence.history(str(script), root=str(tmp_path))
    assert [data["script_hash"] for _, data in runs] == [digest(first), digest(second)]


def test_kept_runs_never_show_up_in_git_status(tmp_path):
    """`.tapewatch/` is created with a `.gitignore` of `*` in it, as pytest, ruff and mypy do with their caches."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    shutil.copy(ROOT / "examples" / "missing_requires_grad.py", tmp_path / "bug.py")
    assert tapewatch("check", "bug.py", "-q", "--no-check-launches", cwd=tmp_path).returncode == 1
    assert list((tmp_path / ".tapewatch" / "runs").glob("bug-*.json"))
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=str(tmp_path),
                            capture_output=True, text=True, check=True).stdout
    assert status.splitlines() == ["?? bug.py"], status
    # A folder that exists already is the user's: left as it is.
    (tmp_path / ".tapewatch" / ".gitignore").unlink()
    assert tapewatch("check", "bug.py", "-q", "--no-check-launches", cwd=tmp_path).returncode == 1
    assert not (tmp_path / ".tapewatch" / ".gitignore").exists()
