"""Facts kept between runs: a changed input is another file, and any failure reads as a miss."""

import os

import pytest

from tapewatch.probe.core import fact_cache, warp_seams


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TAPEWATCH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(fact_cache, "_folder", None)
    yield tmp_path / "cache"
    fact_cache._folder = None


def test_a_stored_fact_is_found_under_its_key_only(cache):
    digest = fact_cache.key("features", 1, ["a"])
    assert fact_cache.load("features", digest) is None
    fact_cache.store("features", digest, {"x": True})
    assert fact_cache.load("features", digest) == {"x": True}
    assert fact_cache.load("features", fact_cache.key("features", 1, ["b"])) is None
    assert [p.name for p in cache.iterdir()] == ["features-%s.json" % digest]  # no temporary left


def test_a_torn_file_is_a_miss(cache):
    digest = fact_cache.key("x")
    cache.mkdir()
    (cache / ("features-%s.json" % digest)).write_text('{"x": tr')
    assert fact_cache.load("features", digest) is None


def test_a_folder_that_cannot_be_made_is_no_error(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("TAPEWATCH_CACHE_DIR", str(blocker / "cache"))
    monkeypatch.setattr(fact_cache, "_folder", None)
    fact_cache.store("features", "d", {"x": True})
    assert fact_cache.load("features", "d") is None
    fact_cache._folder = None


def test_an_edited_file_of_the_package_changes_its_key(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "_src").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "_src" / "context.py").write_text("A = 1\n")

    class Module:
        __file__ = str(pkg / "__init__.py")
        __version__ = "9.9"

    before = fact_cache.key(fact_cache.installation(Module))
    later = os.stat(pkg / "_src" / "context.py").st_mtime_ns + 10**9
    os.utime(pkg / "_src" / "context.py", ns=(later, later))
    assert fact_cache.key(fact_cache.installation(Module)) != before


def test_kept_features_are_the_features_found(cache):
    import warp as wp

    found = warp_seams._features(wp)
    assert warp_seams.features(wp) == found  # a miss: found and stored
    assert len(list(cache.iterdir())) == 1
    assert warp_seams.features(wp) == found  # a hit
