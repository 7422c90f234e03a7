"""Lint results kept between runs: the same findings as a fresh lint, and a miss whenever anything the
lint read changed (the file, a sibling module it imported a number from, a sibling it did not find)."""

import os
import textwrap
from pathlib import Path

import pytest

import tapewatch.lint
from tapewatch import lint_cache
from tapewatch.probe.core import fact_cache

ROOT = Path(__file__).resolve().parents[2]

KERNEL = textwrap.dedent("""
    import warp as wp

    from config import SUBSTEPS


    @wp.kernel
    def decay(x0: wp.array(dtype=float), rate: wp.array(dtype=float), x_out: wp.array(dtype=float)):
        i = wp.tid()
        x = x0[i]
        for s in range(SUBSTEPS):
            x = x - 0.01 * rate[i] * x * x
        x_out[i] = x
    """)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TAPEWATCH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(fact_cache, "_folder", None)
    yield tmp_path / "cache"
    fact_cache._folder = None


@pytest.fixture
def no_lint(monkeypatch):
    """After this, linting raises: a result can only come from the cache."""
    def refuse(*args, **kwargs):
        raise AssertionError("linted again")

    return lambda: monkeypatch.setattr(tapewatch.lint, "lint_source", refuse)


def _codes(found):
    return [(f.code, f.location.line if f.location else None) for f in found]


def _touch(path: Path, text: str) -> None:
    """Write and move the file's time on: a rewrite within one clock tick must still count as a change."""
    before = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(text)
    later = max(path.stat().st_mtime_ns, before + 10**9)
    os.utime(path, ns=(later, later))


def test_a_kept_result_is_the_fresh_result_for_every_example(cache, no_lint):
    files = sorted((ROOT / "examples").rglob("*.py"))
    assert len(files) > 20
    fresh = {}
    for path in files:
        source = path.read_bytes()
        fresh[path] = [f.to_json() for f in tapewatch.lint.lint_source(source, str(path))]
        assert [f.to_json() for f in lint_cache.lint(source, str(path))] == fresh[path], path
    no_lint()
    for path in files:
        assert [f.to_json() for f in lint_cache.lint(path.read_bytes(), str(path))] == fresh[path], path
    assert any(fresh.values())


def test_an_edited_file_is_linted_again(cache, tmp_path):
    main = tmp_path / "sim.py"
    _touch(tmp_path / "config.py", "SUBSTEPS = 24\n")
    first = lint_cache.lint(KERNEL.encode(), str(main))
    assert _codes(first) == [("TW303", 11)]
    edited = KERNEL.replace("x = x - 0.01", "x = x - 0.02")
    assert _codes(lint_cache.lint(edited.encode(), str(main))) == [("TW303", 11)]
    assert len(list(cache.iterdir())) == 1  # one entry per file: the new text replaced the old


def test_a_changed_sibling_module_is_a_miss(cache, tmp_path):
    """24 substeps > Warp's max_unroll: a dynamic loop (TW303); 8: unrolled, silent."""
    main = tmp_path / "sim.py"
    _touch(tmp_path / "config.py", "SUBSTEPS = 24\n")
    assert _codes(lint_cache.lint(KERNEL.encode(), str(main))) == [("TW303", 11)]
    _touch(tmp_path / "config.py", "SUBSTEPS = 8\n")
    assert _codes(lint_cache.lint(KERNEL.encode(), str(main))) == []
    _touch(tmp_path / "config.py", "SUBSTEPS = 24\n")
    assert _codes(lint_cache.lint(KERNEL.encode(), str(main))) == [("TW303", 11)]
    (tmp_path / "config.py").unlink()  # a bound the lint cannot see: not reported
    assert _codes(lint_cache.lint(KERNEL.encode(), str(main))) == []


def test_a_sibling_that_appears_is_a_miss(cache, tmp_path, no_lint):
    main = tmp_path / "sim.py"
    assert _codes(lint_cache.lint(KERNEL.encode(), str(main))) == []  # no config.py yet: bound unknown
    _touch(tmp_path / "config.py", "SUBSTEPS = 24\n")
    assert _codes(lint_cache.lint(KERNEL.encode(), str(main))) == [("TW303", 11)]
    no_lint()
    assert _codes(lint_cache.lint(KERNEL.encode(), str(main))) == [("TW303", 11)]


def test_a_hit_does_not_lint(cache, tmp_path, no_lint):
    main = tmp_path / "sim.py"
    _touch(tmp_path / "config.py", "SUBSTEPS = 24\n")
    first = lint_cache.lint(KERNEL.encode(), str(main))
    no_lint()
    assert _codes(lint_cache.lint(KERNEL.encode(), str(main))) == _codes(first)


def test_a_torn_entry_is_linted_again(cache, tmp_path):
    main = tmp_path / "sim.py"
    _touch(tmp_path / "config.py", "SUBSTEPS = 24\n")
    lint_cache.lint(KERNEL.encode(), str(main))
    [entry] = cache.iterdir()
    entry.write_text('{"source": ')
    assert _codes(lint_cache.lint(KERNEL.encode(), str(main))) == [("TW303", 11)]


def test_a_folder_that_cannot_be_made_still_lints(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("TAPEWATCH_CACHE_DIR", str(blocker / "cache"))
    monkeypatch.setattr(fact_cache, "_folder", None)
    _touch(tmp_path / "config.py", "SUBSTEPS = 24\n")
    assert _codes(lint_cache.lint(KERNEL.encode(), str(tmp_path / "sim.py"))) == [("TW303", 11)]
    fact_cache._folder = None
