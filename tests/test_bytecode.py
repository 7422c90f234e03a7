"""Tapewatch keeps its own bytecode where PYTHONDONTWRITEBYTECODE is set (each run would compile it again)."""

import os
import stat
import subprocess
import sys

from tapewatch import bytecode


def _package(tmp_path):
    root = tmp_path / "pkg"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("X = 1\n")
    (root / "sub" / "mod.py").write_text("def f():\n    return 2\n")
    return root


def _cached(root):
    return sorted(p.name for p in root.rglob("*.pyc"))


def test_missing_bytecode_is_written_once(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    root = _package(tmp_path)
    assert bytecode.ensure(str(root)) == 2
    tag = sys.implementation.cache_tag
    assert _cached(root) == ["__init__.%s.pyc" % tag, "mod.%s.pyc" % tag]
    assert bytecode.ensure(str(root)) == 0


def test_an_edited_module_is_compiled_again(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    root = _package(tmp_path)
    bytecode.ensure(str(root))
    source = root / "sub" / "mod.py"
    source.write_text("def f():\n    return 3\n")
    later = os.stat(source).st_mtime + 10
    os.utime(source, (later, later))
    assert bytecode.ensure(str(root)) == 1


def test_nothing_is_done_when_python_writes_bytecode_itself(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    root = _package(tmp_path)
    assert bytecode.ensure(str(root)) == 0
    assert _cached(root) == []


def test_a_read_only_install_is_left_alone(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    root = _package(tmp_path)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        # root may write anywhere: answer as the folder's mode bits would for its owner
        monkeypatch.setattr(bytecode.os, "access", lambda p, mode: bool(os.stat(p).st_mode & stat.S_IWUSR))
    for folder in (root / "sub", root):
        folder.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        assert bytecode.ensure(str(root)) == 0
    finally:
        for folder in (root, root / "sub"):
            folder.chmod(stat.S_IRWXU)
    assert _cached(root) == []


def test_importing_tapewatch_keeps_its_bytecode(tmp_path):
    """The real package, copied, imported by a fresh interpreter with the variable set."""
    import shutil

    copy = tmp_path / "tapewatch"
    shutil.copytree(os.path.dirname(bytecode.__file__), copy,
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=str(tmp_path))
    subprocess.run([sys.executable, "-c", "import tapewatch.probe.core.tracker"], env=env, check=True, cwd=tmp_path)
    tag = sys.implementation.cache_tag
    assert (copy / "probe" / "core" / "__pycache__" / ("tracker.%s.pyc" % tag)).is_file()
    assert (copy / "lsp" / "__pycache__" / ("server.%s.pyc" % tag)).is_file()
