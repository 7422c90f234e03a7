"""Fixtures of the editor tests: a temporary project and the editor's environment."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from .helpers import LINT_LINE, LINTED, ROOT, SLOW, Project


@pytest.fixture
def project(tmp_path: Path) -> Project:
    root = tmp_path / "project"
    root.mkdir()
    # A project marker, as users have: the documented root detection finds it.
    (root / "pyproject.toml").write_text("[project]\nname = \"editor-test\"\n")
    script = root / "copy_overwrite.py"
    shutil.copy(ROOT / "examples" / "copy_overwrite.py", script)
    linted = root / "linted.py"
    linted.write_text(LINTED)
    pids = root / "slow.pids"
    slow = root / "slow.py"
    slow.write_text(SLOW.format(pids=str(pids)))

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "tapewatch"
    wrapper.write_text('#!/bin/sh\nPYTHONPATH=%s${PYTHONPATH:+:$PYTHONPATH} exec %s -m tapewatch "$@"\n'
                       % (ROOT / "server", sys.executable))
    wrapper.chmod(0o755)

    home = tmp_path / "home"
    env = dict(os.environ)
    env.update({
        "PATH": "%s%s%s" % (bin_dir, os.pathsep, env.get("PATH", "")),
        # Nothing of the user's editor setup (init files, plugins, logs) leaks in or out.
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "TW_SCRIPT": str(script),
        "TW_LINTED": str(linted),
        "TW_LINT_LINE": str(LINT_LINE),
        "TW_SLOW": str(slow),
        "TW_RESULT": str(tmp_path / "result.json"),
    })
    return Project(root=root, script=script, linted=linted, slow=slow, pids=pids,
                   result=tmp_path / "result.json", env=env)
