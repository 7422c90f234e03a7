"""Tapewatch as users install it: a wheel and an sdist built with ``python -m build``, installed into a
fresh virtual environment, and every documented command run there as written (README's "Use it on
your own scripts" and pre-commit hook, docs/ci.md's workflow steps).

Slow (a build and a virtual environment with Warp: about a minute with pip's cache warm): marked
``slow``, part of the full suite (``-m "not slow"`` leaves it out of a quick run).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from conftest import missing

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
CI_DOC = (ROOT / "docs" / "ci.md").read_text()

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

KERNEL_BUG = '''import warp as wp


@wp.kernel
def scale(x: wp.array(dtype=float), s: wp.array(dtype=float)):
    i = wp.tid()
    x[i] *= s[0]
'''

GRADIENT_TEST = '''import warp as wp


@wp.kernel
def square(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * x[i]


@wp.kernel
def halve(y: wp.array(dtype=float), x: wp.array(dtype=float)):
    i = wp.tid()
    x[i] = 0.5 * y[i]


def test_gradient():
    x = wp.array([1.0, 2.0], dtype=float, requires_grad=True, device="cpu")
    y = wp.zeros(2, dtype=float, requires_grad=True, device="cpu")
    tape = wp.Tape()
    with tape:
        wp.launch(square, dim=2, inputs=[x], outputs=[y], device="cpu")
        wp.launch(halve, dim=2, inputs=[y], outputs=[x], device="cpu")  # overwrites x, which square read
    tape.backward(grads={y: wp.ones(2, dtype=float, device="cpu")})
'''


def section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start:end if end >= 0 else len(text)]


def blocks(text: str, lang: str) -> list:
    return re.findall(r"```%s\n(.*?)```" % lang, text, re.S)


def commands(block: str) -> list:
    """The commands of a shell block, without their comments."""
    out = []
    for line in block.splitlines():
        line = line.split("  #", 1)[0].strip()
        if line and not line.startswith("#"):
            out.append(line)
    return out


def source_copy(dest: Path) -> Path:
    """This checkout's files a build reads (no caches, no build outputs): what a clone holds."""
    dest.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml"):
        shutil.copy(ROOT / name, dest / name)
    shutil.copytree(ROOT / "server", dest / "server",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc"))
    return dest


def run(command, cwd, env, timeout=300, shell=False):
    return subprocess.run(command, cwd=str(cwd), env=env, capture_output=True, text=True, timeout=timeout,
                          shell=shell, executable="/bin/bash" if shell else None)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """``python -m build`` of a copy of this checkout: the sdist, and the wheel built from it."""
    try:
        import build  # noqa: F401
    except ImportError:
        missing("the `build` package (pip install build) builds the wheel and sdist")
    src = source_copy(tmp_path_factory.mktemp("clone") / "tapewatch")
    out = src.parent / "dist"
    proc = run([sys.executable, "-m", "build", "--outdir", str(out), str(src)], src, dict(os.environ))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    [wheel] = out.glob("tapewatch-*.whl")
    [sdist] = out.glob("tapewatch-*.tar.gz")
    return {"src": src, "wheel": wheel, "sdist": sdist, "log": proc.stdout + proc.stderr}


@pytest.fixture(scope="module")
def user_env(tmp_path_factory, built):
    """A fresh virtual environment with Warp, NumPy and pytest: the user's, before Tapewatch."""
    venv = tmp_path_factory.mktemp("user") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    env = dict(os.environ, PATH="%s%s%s" % (venv / "bin", os.pathsep, os.environ.get("PATH", "")),
               VIRTUAL_ENV=str(venv))
    for key in ("PYTHONPATH", "PYTHONHOME", "PYTEST_ADDOPTS", "PYTEST_PLUGINS", "CI"):
        env.pop(key, None)
    proc = run(["python", "-m", "pip", "install", "-q", "warp-lang", "numpy", "pytest"], venv, env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return {"venv": venv, "env": env}


def test_the_wheel_and_sdist_build_without_warnings_and_install(built, user_env):
    assert "License classifiers are deprecated" not in built["log"]
    assert "project.license` as a TOML table is deprecated" not in built["log"]
    with tarfile.open(built["sdist"]) as sdist:
        names = sdist.getnames()
    assert any(n.endswith("/server/tapewatch/cli.py") for n in names) and any(n.endswith("/README.md") for n in names)
    with zipfile.ZipFile(built["wheel"]) as wheel:
        names = wheel.namelist()
        metadata = wheel.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        entry_points = wheel.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    assert "tapewatch/probe/__main__.py" in names and "tapewatch/config.py" in names
    assert "License-Expression: Apache-2.0" in metadata
    assert "tapewatch = tapewatch.cli:main" in entry_points and "tapewatch = tapewatch.pytest_plugin" in entry_points
    env = user_env["env"]
    proc = run(["python", "-m", "pip", "install", "-q", str(built["wheel"])], user_env["venv"], env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    version = run(["tapewatch", "--version"], user_env["venv"], env)
    assert version.returncode == 0 and version.stdout.strip() == "tapewatch 0.1.0", version.stdout + version.stderr
    installed = run(["python", "-m", "pip", "list", "--format", "freeze"], user_env["venv"], env).stdout.lower()
    assert "pytest-asyncio" not in installed and "pytest_asyncio" not in installed  # nothing brings it to users


def test_the_readme_install_and_own_script_commands_as_written(built, user_env, tmp_path):
    own = section(README, "## Use it on your own scripts")
    install, use = blocks(own, "sh")
    env = user_env["env"]
    for command in commands(install):
        proc = run(command.replace("/path/to/tapewatch", str(built["src"])), tmp_path, env, shell=True)
        assert proc.returncode == 0, (command, proc.stdout[-2000:], proc.stderr[-3000:])
    assert proc.stdout.strip() == "tapewatch 0.1.0"

    project = tmp_path / "project"
    for rel in ("repros", "src", "tests"):
        (project / rel).mkdir(parents=True)
    shutil.copy(ROOT / "examples" / "copy_overwrite.py", project / "repro.py")
    shutil.copy(ROOT / "examples" / "copy_overwrite.py", project / "repros" / "copy_overwrite.py")
    shutil.copy(ROOT / "examples" / "correct_fresh_arrays.py", project / "repros" / "correct_fresh_arrays.py")
    (project / "src" / "kernels.py").write_text(KERNEL_BUG)
    (project / "tests" / "test_gradient.py").write_text(GRADIENT_TEST)
    expected = {"tapewatch check repro.py": ("TW102", 1), "tapewatch check repros/": ("TW102", 1),
                "tapewatch lint src/": ("TW301", 1), "pytest --tapewatch tests/": ("TW101", 1)}
    seen = set()
    for command in commands(use):
        proc = run(command, project, env, shell=True)
        output = proc.stdout + proc.stderr
        key = next(k for k in expected if command.startswith(k))
        code, status = expected[key]
        assert proc.returncode == status and code in output, (command, output[-3000:])
        assert "Warning" not in output.replace("TapewatchWarning", ""), (command, output[-3000:])
        seen.add(key)
    assert seen == set(expected)
    assert not list(project.rglob(".tapewatch/runs/*.json")) or (project / ".tapewatch" / ".gitignore").is_file()


def test_the_readme_pre_commit_hook_as_written(built, user_env, tmp_path):
    try:
        import pre_commit  # noqa: F401
    except ImportError:
        missing("pre-commit (pip install pre-commit) runs the documented hook")
    env = dict(user_env["env"], PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"))
    run(["python", "-m", "pip", "install", "-q", str(built["wheel"])], tmp_path, env)
    [config] = blocks(section(README, "### As a pre-commit hook"), "yaml")
    repo = tmp_path / "repo"
    (repo / "legacy").mkdir(parents=True)
    (repo / ".pre-commit-config.yaml").write_text(config)
    (repo / "kernels.py").write_text(KERNEL_BUG.replace("x[i] *= s[0]", "x[i] = x[i] * s[0]"))
    (repo / "legacy" / "old.py").write_text(KERNEL_BUG)
    for command in (["git", "init", "-q"], ["git", "add", "."]):
        subprocess.run(command, cwd=str(repo), check=True)
    hook = [sys.executable, "-m", "pre_commit", "run", "--all-files"]
    failed = run(hook, repo, env)
    assert failed.returncode == 1 and "legacy/old.py:7:5: warning TW301" in failed.stdout, failed.stdout + failed.stderr
    (repo / "pyproject.toml").write_text('[tool.tapewatch]\nextend-exclude = ["legacy/*"]\n')
    subprocess.run(["git", "add", "."], cwd=str(repo), check=True)
    passed = run(hook, repo, env)
    assert passed.returncode == 0, passed.stdout + passed.stderr  # the hook names the file: --force-exclude


def test_the_ci_workflow_steps_as_written(built, user_env, tmp_path):
    """docs/ci.md's `run:` steps, each as GitHub runs it (bash -e), in the workspace its checkouts make."""
    steps = [line.split("run:", 1)[1].strip() for line in blocks(CI_DOC, "yaml")[0].splitlines()
             if line.strip().startswith(("run:", "- run:"))]
    assert len(steps) == 3 and steps[0].startswith("pip install")
    work = tmp_path / "work"
    source_copy(work / "tapewatch")
    (work / "src").mkdir()
    (work / "src" / "kernels.py").write_text(KERNEL_BUG)
    (work / "repros").mkdir()
    shutil.copy(ROOT / "examples" / "copy_overwrite.py", work / "repros" / "copy_overwrite.py")
    env = user_env["env"]

    def job() -> list:
        return [run(["bash", "-e", "-c", step], work, env) for step in steps]

    results = job()
    assert [r.returncode for r in results] == [0, 0, 0], [(r.stdout[-1500:], r.stderr[-1500:]) for r in results]
    lint = json.loads((work / "lint.sarif").read_text())
    check = json.loads((work / "check.sarif").read_text())
    assert [r["ruleId"] for r in lint["runs"][0]["results"]] == ["TW301"]
    assert "TW102" in [r["ruleId"] for r in check["runs"][0]["results"]]
    (work / "repros" / "broken.py").write_text("import warp as wp\nimport not_installed_anywhere\n"
                                               "tape = wp.Tape()\ntape.backward()\n")
    assert run(["bash", "-e", "-c", steps[2]], work, env).returncode != 0  # could not verify: the job fails
